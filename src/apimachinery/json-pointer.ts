// RFC 6901 JSON pointers as token lists: "" is the whole document, "/a~1b/0" is ["a/b", "0"].

/** parseJsonPointer splits a pointer into unescaped tokens, or describes why it is malformed. */
export function parseJsonPointer(pointer: string): { tokens: string[] } | { error: string } {
  if (pointer === '') return { tokens: [] };
  if (!pointer.startsWith('/')) return { error: `invalid JSON pointer ${JSON.stringify(pointer)}: must be empty or start with '/'` };
  // '~' may only start the escapes '~0' and '~1'.
  const badEscape = /~(?![01])/.exec(pointer);
  if (badEscape !== null) {
    return { error: `invalid JSON pointer ${JSON.stringify(pointer)}: bad escape at position ${badEscape.index}` };
  }
  // Unescape ~1 before ~0 so that "~01" becomes "~1" and not "/".
  return { tokens: pointer.slice(1).split('/').map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~')) };
}

/** formatJsonPointer joins tokens back into an escaped pointer. */
export function formatJsonPointer(tokens: readonly string[]): string {
  return tokens.map((token) => `/${token.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}
