// New object uids: random (version 4) UUIDs, as kube-apiserver gives. crypto.randomUUID builds its
// text by joining about twenty pieces, a rope of ~500 bytes that a store then had to copy flat (a
// uid lives as long as its object). Here the text is written as bytes into a scratch buffer and
// read back once, as one flat string, from random bytes drawn in batches.

import { randomFillSync } from 'node:crypto';

/** UUIDS_PER_BATCH: random bytes are drawn for this many uids at a time (one system call). */
const UUIDS_PER_BATCH = 256;

const HEX = Buffer.from('0123456789abcdef', 'latin1');

/** UidSource hands out random version 4 UUIDs as flat strings; each store has its own. */
export class UidSource {
  readonly #random = Buffer.alloc(16 * UUIDS_PER_BATCH);
  #next = UUIDS_PER_BATCH;
  readonly #text = Buffer.alloc(36);

  /** next returns a new uid. */
  next(): string {
    if (this.#next === UUIDS_PER_BATCH) {
      randomFillSync(this.#random);
      this.#next = 0;
    }
    const at = 16 * this.#next++;
    const text = this.#text;
    let out = 0;
    for (let i = 0; i < 16; i++) {
      // A dash before bytes 4, 6, 8 and 10: `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`.
      if (i === 4 || i === 6 || i === 8 || i === 10) text[out++] = 0x2d;
      let byte = this.#random[at + i] as number;
      // RFC 9562: the version (4) in the high nibble of byte 6, the variant (10) in the top bits of byte 8.
      if (i === 6) byte = (byte & 0x0f) | 0x40;
      else if (i === 8) byte = (byte & 0x3f) | 0x80;
      text[out++] = HEX[byte >> 4] as number;
      text[out++] = HEX[byte & 0x0f] as number;
    }
    return text.toString('latin1', 0, 36);
  }
}
