// The base64 check of Go's encoding/json for []byte fields (base64.StdEncoding.Decode), so that a
// malformed value is refused with the offset Kubernetes reports: `illegal base64 data at input byte 8`.
// Go skips '\r' and '\n' anywhere and requires padding; the offsets below follow its decodeQuantum.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const PAD = 0x3d; // '='
const CR = 0x0d;
const LF = 0x0a;

function isAlphabet(byte: number): boolean {
  return byte < 0x80 && ALPHABET.includes(String.fromCharCode(byte));
}

/** base64ErrorOffset is the input byte Go's standard base64 decoder stops at, or undefined when the text decodes. */
export function base64ErrorOffset(text: string): number | undefined {
  const src = Buffer.from(text, 'utf8');
  let si = 0;
  while (si < src.length) {
    const step = decodeQuantum(src, si);
    if (step.error !== undefined) return step.error;
    if (step.done) return undefined;
    si = step.next;
  }
  return undefined;
}

/** goBase64Error is Go's message for text that is not standard base64, or undefined. */
export function goBase64Error(text: string): string | undefined {
  const offset = base64ErrorOffset(text);
  return offset === undefined ? undefined : `illegal base64 data at input byte ${offset}`;
}

interface QuantumStep {
  readonly next: number;
  readonly done?: boolean;
  readonly error?: number;
}

// One group of four characters (newlines skipped), as Go's decodeQuantum reads it.
function decodeQuantum(src: Buffer, start: number): QuantumStep {
  let si = start;
  for (let j = 0; j < 4; j++) {
    if (si === src.length) return j === 0 ? { next: si, done: true } : { next: si, error: si - j };
    const byte = src[si++] ?? 0;
    if (isAlphabet(byte)) continue;
    if (byte === LF || byte === CR) {
      j--;
      continue;
    }
    if (byte !== PAD || j < 2) return { next: si, error: si - 1 };
    return padding(src, si, j);
  }
  return { next: si };
}

// After the first '=' of a group: "==" completes a group of two, "=" one of three, then only newlines may follow.
function padding(src: Buffer, afterPad: number, j: number): QuantumStep {
  let si = skipNewlines(src, afterPad);
  if (j === 2) {
    if (si === src.length) return { next: si, error: src.length };
    if (src[si] !== PAD) return { next: si, error: si - 1 };
    si = skipNewlines(src, si + 1);
  }
  return si < src.length ? { next: si, error: si } : { next: si, done: true };
}

function skipNewlines(src: Buffer, from: number): number {
  let si = from;
  while (si < src.length && (src[si] === LF || src[si] === CR)) si++;
  return si;
}
