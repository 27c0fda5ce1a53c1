// The repository stands on its own: no file cites a document outside it (the design notes and
// references it was planned from) or an issue number, since a reader of the repository can open
// none of them. What such a citation meant belongs in docs/ or next to the code.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const THIS_FILE = 'test/unit/docs/stands-alone.test.ts';

/** OUTSIDE is what a citation of an outside document or an issue looks like. */
const OUTSIDE: ReadonlyArray<readonly [string, RegExp]> = [
  ['the design notes', /\bDESIGN\.md\b/],
  ['the toolchain notes', /\bTOOLCHAIN\.md\b/],
  ['a path outside the repository', /\.\.\/shared\b/],
  ['the reference notes', /\bshared\/(reference|seeds)\b/],
  ['an issue number', /\bissues? #?\d+/i],
  ['a section of the design notes', /\bDESIGN\s*§/],
];

/** trackedTextFiles lists the files git tracks or would track, except lock files and binaries. */
function trackedTextFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  return out.split('\n').filter((f) => f !== '' && f !== THIS_FILE && !/(^|\/)package-lock\.json$|\.(png|svg|ico|woff2?)$/.test(f));
}

describe('the repository stands on its own', () => {
  it('case 1: no file cites an outside document or an issue number', () => {
    const found: string[] = [];
    for (const file of trackedTextFiles()) {
      let text: string;
      try {
        text = readFileSync(`${ROOT}/${file}`, 'utf8');
      } catch {
        continue; // listed but deleted in the work tree
      }
      text.split('\n').forEach((line, i) => {
        for (const [what, pattern] of OUTSIDE) if (pattern.test(line)) found.push(`${file}:${i + 1}: ${what}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(found).toEqual([]);
  });

  it.each([
    ['case 2', 'see DESIGN.md for the contract', true],
    ['case 3', 'as issue 7 asked', true],
    ['case 4', 'facts in ../shared/reference/kcp.md', true],
    ['case 5', 'GitHub issues are welcome', false],
    ['case 6', 'the design of the store', false],
  ])('%s: the patterns tell a citation from ordinary words (%s)', (_name, line, cites) => {
    expect(OUTSIDE.some(([, pattern]) => pattern.test(line))).toBe(cites);
  });
});
