// SHA-256 written in base 36: short, lowercase and made only of [0-9a-z], so it fits in object
// names and label values where hex would be longer.

import { hash } from 'node:crypto';

const BASE = 36;

/** sha256Base36 gives SHA-256 of a UTF-8 string as a big-endian unsigned integer in lowercase base 36. */
export function sha256Base36(text: string): string {
  // The one-shot hash (a string is hashed as UTF-8) costs half of a Hash object's update/digest.
  const hex = hash('sha256', text, 'hex');
  return BigInt(`0x${hex}`).toString(BASE);
}
