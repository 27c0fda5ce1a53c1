// cachegate runs with the same Node flags however it is started: the image's ENTRYPOINT, `npm
// start`, and the system bench (which reads them from the Dockerfile). A flag changed in one place
// and not the other would make the bench measure a process nobody runs.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { imageNodeFlags } from '../../../bench/system/image-node-flags.js';

const ROOT = new URL('../../../', import.meta.url);

function startScriptFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { scripts: Record<string, string> };
  const words = (pkg.scripts['start'] ?? '').split(/\s+/);
  expect(words[0]).toBe('node');
  // Flags run up to the loader (`--import tsx`), which only npm start needs.
  return words.slice(1, words.indexOf('--import'));
}

describe('Node flags', () => {
  it('case 1: npm start passes the flags of the image ENTRYPOINT', () => {
    expect(startScriptFlags()).toEqual(imageNodeFlags());
  });

  it('case 2: the young generation is capped (its resident size otherwise grows to ~100 MiB)', () => {
    expect(imageNodeFlags()).toContain('--max-semi-space-size=16');
  });

  it('case 3: an ENTRYPOINT not in exec form is refused with a message', () => {
    expect(() => imageNodeFlags('ENTRYPOINT node dist/main.js\n')).toThrow('not the exec form');
    expect(() => imageNodeFlags('FROM node:24\n')).toThrow('no ENTRYPOINT');
    expect(imageNodeFlags('ENTRYPOINT ["node", "--a", "--b=1", "dist/main.js"]\n')).toEqual(['--a', '--b=1']);
  });
});
