// The README's Configuration section against the config schema: the field table holds exactly
// the schema's fields with their accepted values, defaults and meanings; the flag table's
// defaults are the schema's; the example error line is what the loader prints.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { CONFIG_TABLE_HEADER, configTableRows } from './config-table.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const README = readFileSync(`${ROOT}README.md`, 'utf8');

/** section is the README's "## Configuration" section. */
function section(): string {
  return /\n## Configuration\n([\s\S]*?)(\n## |$)/.exec(README)?.[1] ?? '';
}

/** tableAfter gives the rows (header and separator left out) of the table starting with header. */
function tableAfter(header: string): string[] {
  const lines = section().split('\n');
  const start = lines.indexOf(header);
  if (start < 0) return [];
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  return lines.slice(start + 2, end < 0 ? undefined : end);
}

describe('README Configuration section', () => {
  it('case 1: its field table is the schema\'s: every field with what it accepts, its default and meaning, and no other', () => {
    const expected = configTableRows();
    const actual = tableAfter(CONFIG_TABLE_HEADER[0] ?? '');
    expect(actual, `README.md's field table should read:\n${[...CONFIG_TABLE_HEADER, ...expected].join('\n')}\n`).toEqual(expected);
  });

  it('case 2: the flag table\'s defaults are the schema\'s defaults of the same fields', () => {
    const rows = tableAfter('| flag | env | file field | default |').map((line) => line.split('|').map((cell) => cell.trim()));
    const fields = new Map(configTableRows().map((line) => line.split('|').map((cell) => cell.trim())).map((cells) => [cells[1], cells[3]]));
    const withField = rows.filter((cells) => cells[3] !== '');
    expect(withField.length).toBeGreaterThan(2);
    for (const cells of withField) expect(cells[4], `${cells[3]}`).toBe(fields.get(cells[3]));
  });

  it('case 3: its example of an invalid config is what the loader prints', () => {
    const example = /`(cachegate: invalid config: [^`]*)`/.exec(section())?.[1];
    let message = '';
    try {
      loadConfig({ argv: ['--config', 'c.yaml'], env: {}, readFile: () => 'sources: [{name: a, kind: openshift}]' });
    } catch (err) {
      if (err instanceof ConfigError) message = err.message;
    }
    expect(example).toBe(`cachegate: ${message}`);
  });
});
