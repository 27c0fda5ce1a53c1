// Renders the import table of import-boundaries.js as the Markdown table in docs/import-rules.md.
// Run `node eslint/import-rules-doc.js` after changing the table; a unit test fails while the
// document and the table disagree.
import { readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import { ANY_ROOM, importBoundaries } from './import-boundaries.js';

/** TABLE_START and TABLE_END enclose the generated part of docs/import-rules.md. */
export const TABLE_START = '<!-- import table: generated from eslint/import-boundaries.js by `node eslint/import-rules-doc.js` -->';
export const TABLE_END = '<!-- end of import table -->';

const docFile = fileURLToPath(new URL('../docs/import-rules.md', import.meta.url));

function roomCell(room) {
  return room.paths.map((p) => `\`src/${p}\``).join(', ');
}

function mayCell(room) {
  if (room.may === ANY_ROOM) return 'anything in `src/`';
  const others = room.may.filter((name) => name !== room.name);
  return others.length === 0 ? 'nothing from `src/`' : others.join(', ');
}

/** renderImportTable returns the Markdown between TABLE_START and TABLE_END. */
export function renderImportTable(boundaries = importBoundaries) {
  const rows = boundaries.rooms.map(
    (room) => `| ${roomCell(room)} | ${mayCell(room)} | ${room.types.join(', ')} | ${room.note ?? ''} |`,
  );
  const reserved = Object.entries(boundaries.packages).map(
    ([pkg, owners]) => `- \`${pkg}\`: only ${owners.map((o) => `\`src/${o}/\``).join(', ')}`,
  );
  return [
    '| room | may import | may import with `import type` only | note |',
    '|---|---|---|---|',
    ...rows,
    '',
    'npm packages and node builtins are open to every room, except:',
    '',
    ...reserved,
  ].join('\n');
}

/** generatedPart cuts the text between the markers out of a document, or returns undefined. */
export function generatedPart(doc) {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) return undefined;
  return doc.slice(start + TABLE_START.length, end).trim();
}

function writeDoc() {
  const doc = readFileSync(docFile, 'utf8');
  const current = generatedPart(doc);
  if (current === undefined) throw new Error(`${docFile} lacks the markers ${TABLE_START} … ${TABLE_END}`);
  const start = doc.indexOf(TABLE_START) + TABLE_START.length;
  writeFileSync(docFile, `${doc.slice(0, start)}\n${renderImportTable()}\n${doc.slice(doc.indexOf(TABLE_END))}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeDoc();
