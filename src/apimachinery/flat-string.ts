// Long-lived strings built by concatenation (template literals, `a + b`, crypto.randomUUID, which
// joins ~20 pieces) are ropes in V8: a 32-byte node per join, kept for as long as the string
// lives, next to its pieces. Strings the cache keeps per object (names, index keys, uids) are
// copied into one contiguous string once, when they are first stored.

/** flatString copies s into one contiguous string. */
export function flatString(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}
