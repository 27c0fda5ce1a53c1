// Types of import-rules-doc.js, for the TypeScript test that checks docs/import-rules.md.
import type { ImportBoundaries } from './import-boundaries.js';

export declare const TABLE_START: string;
export declare const TABLE_END: string;
/** renderImportTable returns the Markdown between TABLE_START and TABLE_END. */
export declare function renderImportTable(boundaries?: ImportBoundaries): string;
/** generatedPart cuts the text between the markers out of a document, or returns undefined. */
export declare function generatedPart(doc: string): string | undefined;
