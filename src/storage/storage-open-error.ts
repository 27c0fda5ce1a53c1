// StorageOpenError is a backend that cannot be opened as configured: a data directory that cannot
// be read or written, a corrupt database, a format written by a newer cachegate, another process
// holding the directory. Like a bad config value, it ends start-up with one line and exit code 2:
// starting empty instead would silently lose the state the operator expects to find.

/** StorageOpenError carries a message that names the path or endpoint and what is wrong with it. */
export class StorageOpenError extends Error {
  override readonly name = 'StorageOpenError';
}
