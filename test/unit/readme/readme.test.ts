// The README against the code: its commands, scripts, config example and paths must be real.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load-config.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const README = readFileSync(`${ROOT}README.md`, 'utf8');
const SCRIPTS = Object.keys((JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts);

/** yamlBlocks are the README's fenced yaml examples. */
function yamlBlocks(): string[] {
  return [...README.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
}

describe('README', () => {
  it('case 1: it starts with the two commands that work on a fresh machine', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(README)?.[1] ?? '';
    expect(README.startsWith('# cachegate\n\n```sh\n')).toBe(true);
    expect(firstBlock).toMatch(/^npm ci && npm start\b/m);
    expect(firstBlock).toMatch(/^npm ci && npm test\b/m);
  });

  it('case 2: every `npm run <script>` it names exists in package.json', () => {
    const named = [...README.matchAll(/npm run ([a-z:]+)/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(3);
    for (const script of named) expect(SCRIPTS, `npm run ${script}`).toContain(script);
  });

  it('case 3: its config file example loads with the real config loader', () => {
    const example = yamlBlocks().find((block) => block.startsWith('host:'));
    expect(example).toBeDefined();
    const config = loadConfig({ argv: ['--config', 'example.yaml'], env: {}, readFile: () => example ?? '' });
    expect(config.sources.map((s) => s.name)).toEqual(['prod', 'shard-1']);
    expect(config.limits.bodyBytes).toBe(3 * 1024 * 1024);
  });

  it('case 4: every src/, test/, bench/, deploy/ and scripts/ path it names exists', () => {
    const paths = [...README.matchAll(/`((?:src|test|bench|deploy|scripts|openapi|schema)\/[A-Za-z0-9_./-]*)`/g)].map((m) => m[1] ?? '');
    expect(paths.length).toBeGreaterThan(10);
    for (const path of paths) expect(existsSync(`${ROOT}${path.replace(/\/$/, '')}`), path).toBe(true);
  });
});
