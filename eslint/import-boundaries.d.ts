// Types of import-boundaries.js, for the TypeScript tests that read the table.

/** ANY_ROOM as `may` lets a room import every room of src/. */
export declare const ANY_ROOM = '*';

/** ImportRoom is a folder (or top-level file) of src/ and what it may import. */
export interface ImportRoom {
  /** name is how other rooms refer to this one, e.g. `controllers/runtime`. */
  readonly name: string;
  /** paths are relative to src/; a folder ends with `/`. */
  readonly paths: readonly string[];
  readonly may: readonly string[] | typeof ANY_ROOM;
  /** types are rooms this one may import with `import type` only. */
  readonly types: readonly string[];
  readonly note?: string;
}

/** ImportBoundaries is the whole table. */
export interface ImportBoundaries {
  readonly rooms: readonly ImportRoom[];
  /** packages maps an npm package to the only rooms that may import it. */
  readonly packages: Readonly<Record<string, readonly string[]>>;
}

export declare const importBoundaries: ImportBoundaries;
