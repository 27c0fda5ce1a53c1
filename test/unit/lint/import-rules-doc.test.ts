// docs/import-rules.md shows the import table that lint enforces, not an older copy of it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedPart, renderImportTable } from '../../../eslint/import-rules-doc.js';

const docUrl = new URL('../../../docs/import-rules.md', import.meta.url);

describe('docs/import-rules.md', () => {
  it('holds the table of eslint/import-boundaries.js (regenerate: node eslint/import-rules-doc.js)', () => {
    expect(generatedPart(readFileSync(docUrl, 'utf8'))).toBe(renderImportTable());
  });
});
