// The flags Node.js starts cachegate with, and the malloc tunables it runs under: the image
// (Dockerfile ENTRYPOINT and ENV), `npm start` and the system bench's measured process (which
// reads the Dockerfile) must agree, or the bench measures a process no user runs. V8 reads
// --max-semi-space-size, and glibc GLIBC_TUNABLES, only at start-up, so neither can move into
// src/main.ts.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { imageNodeFlags, imageRuntimeEnv } from '../../../bench/system/image-node-flags.js';

const ROOT = new URL('../../../', import.meta.url);

/** NpmStart is what `npm start` runs: NAME=value assignments, then node with its options before `--import tsx src/main.ts`. */
interface NpmStart {
  readonly env: Record<string, string>;
  readonly flags: string[];
}

function npmStart(): NpmStart {
  const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { scripts: Record<string, string> };
  const words = (pkg.scripts['start'] ?? '').split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0] ?? '')) {
    const [name = '', ...value] = (words.shift() ?? '').split('=');
    env[name] = value.join('=');
  }
  expect(words[0]).toBe('node');
  const loader = words.indexOf('--import');
  expect(words.slice(loader)).toEqual(['--import', 'tsx', 'src/main.ts']);
  return { env, flags: words.slice(1, loader) };
}

describe('node flags', () => {
  it('case 1: the image caps the young generation at two 16 MiB semi-spaces', () => {
    expect(imageNodeFlags()).toContain('--max-semi-space-size=16');
  });

  it('case 2: npm start passes the image flags', () => {
    expect(npmStart().flags).toEqual(imageNodeFlags());
  });

  it('case 3: an ENTRYPOINT that does not run dist/main.js with node is refused', () => {
    expect(imageNodeFlags('ENTRYPOINT ["node", "--max-semi-space-size=16", "dist/main.js"]\n')).toEqual(['--max-semi-space-size=16']);
    expect(() => imageNodeFlags('ENTRYPOINT node dist/main.js\n')).toThrow(/JSON form/);
    expect(() => imageNodeFlags('ENTRYPOINT ["bun", "dist/main.js"]\n')).toThrow(/does not start node/);
    expect(() => imageNodeFlags('ENTRYPOINT ["node", "main.js"]\n')).toThrow(/dist\/main.js/);
  });

  it('case 4: the image maps allocations of 64 KiB and more on their own, and npm start sets the same tunables', () => {
    expect(imageRuntimeEnv()).toEqual({ GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=65536:glibc.malloc.trim_threshold=0' });
    expect(npmStart().env).toEqual(imageRuntimeEnv());
    expect(imageRuntimeEnv('FROM node:24-slim\nENV NODE_ENV=production\n')).toEqual({});
  });
});
