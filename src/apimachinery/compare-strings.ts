// The one string order of lists and sorted answers: by UTF-16 code units, as Array.prototype.sort
// orders strings by default, and never by locale (a locale would make answers machine-dependent).

/** compareStrings orders two strings by UTF-16 code units (-1, 0 or 1). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
