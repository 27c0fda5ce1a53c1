// The flags Node.js starts cachegate with: the image (Dockerfile ENTRYPOINT), `npm start` and the
// system bench's measured process (which reads the Dockerfile) must agree, or the bench measures a
// process no user runs. V8 reads --max-semi-space-size only at start-up, so it cannot move into
// src/main.ts.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { imageNodeFlags } from '../../../bench/system/image-node-flags.js';

const ROOT = new URL('../../../', import.meta.url);

/** npmStartFlags are the options `npm start` gives node before `--import tsx src/main.ts`. */
function npmStartFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { scripts: Record<string, string> };
  const argv = (pkg.scripts['start'] ?? '').split(/\s+/);
  expect(argv[0]).toBe('node');
  const loader = argv.indexOf('--import');
  expect(argv.slice(loader)).toEqual(['--import', 'tsx', 'src/main.ts']);
  return argv.slice(1, loader);
}

describe('node flags', () => {
  it('case 1: the image caps the young generation at two 16 MiB semi-spaces', () => {
    expect(imageNodeFlags()).toContain('--max-semi-space-size=16');
  });

  it('case 2: npm start passes the image flags', () => {
    expect(npmStartFlags()).toEqual(imageNodeFlags());
  });

  it('case 3: an ENTRYPOINT that does not run dist/main.js with node is refused', () => {
    expect(imageNodeFlags('ENTRYPOINT ["node", "--max-semi-space-size=16", "dist/main.js"]\n')).toEqual(['--max-semi-space-size=16']);
    expect(() => imageNodeFlags('ENTRYPOINT node dist/main.js\n')).toThrow(/JSON form/);
    expect(() => imageNodeFlags('ENTRYPOINT ["bun", "dist/main.js"]\n')).toThrow(/does not start node/);
    expect(() => imageNodeFlags('ENTRYPOINT ["node", "main.js"]\n')).toThrow(/dist\/main.js/);
  });
});
