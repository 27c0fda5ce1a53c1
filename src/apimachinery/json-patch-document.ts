// Reading an RFC 6902 patch document: shape checks only. A document that is not an array of
// well-formed operations is the client's syntax error (400 BadRequest); whether the operations
// apply to the object is decided later by applyJsonPatch.

import { AppError } from '../errors.js';
import { parseJsonPointer } from './json-pointer.js';
import { isPlainObject } from './object-meta.js';

/** JsonPatchOp is one operation name of RFC 6902. */
export type JsonPatchOp = 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';

/** JsonPatchOperation is one checked operation with its pointers already split into tokens. */
export interface JsonPatchOperation {
  readonly op: JsonPatchOp;
  readonly path: string;
  readonly pathTokens: readonly string[];
  /** from and fromTokens are set for move and copy only. */
  readonly from?: string;
  readonly fromTokens?: readonly string[];
  /** value is set (possibly to null) for add, replace and test only. */
  readonly value?: unknown;
}

const OPS: ReadonlySet<string> = new Set<JsonPatchOp>(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** readJsonPatch checks a patch document and returns its operations; malformed → BadRequest. */
export function readJsonPatch(document: unknown): JsonPatchOperation[] {
  if (!Array.isArray(document)) throw badRequest('a JSON patch must be an array of operations');
  return document.map((entry: unknown, index) => readOperation(entry, index));
}

function readOperation(entry: unknown, index: number): JsonPatchOperation {
  const where = `JSON patch operation ${index}`;
  if (!isPlainObject(entry)) throw badRequest(`${where} must be an object`);
  const op = entry['op'];
  if (typeof op !== 'string' || !OPS.has(op)) {
    throw badRequest(`${where} has unknown op ${JSON.stringify(op ?? null)}; expected add, remove, replace, move, copy or test`);
  }
  const path = readPointer(entry, 'path', `${where} (${op})`);
  const operation = { op: op as JsonPatchOp, path: path.text, pathTokens: path.tokens };
  if (op === 'move' || op === 'copy') {
    const from = readPointer(entry, 'from', `${where} (${op})`);
    return { ...operation, from: from.text, fromTokens: from.tokens };
  }
  if (op === 'remove') return operation;
  if (!Object.hasOwn(entry, 'value')) throw badRequest(`${where} (${op} ${JSON.stringify(path.text)}) has no value`);
  return { ...operation, value: entry['value'] };
}

function readPointer(entry: Record<string, unknown>, member: 'path' | 'from', where: string): { text: string; tokens: string[] } {
  const text = entry[member];
  if (typeof text !== 'string') throw badRequest(`${where} has no "${member}" string`);
  const parsed = parseJsonPointer(text);
  if ('error' in parsed) throw badRequest(`${where}: ${parsed.error}`);
  return { text, tokens: parsed.tokens };
}

function badRequest(message: string): AppError {
  return new AppError('BadRequest', message);
}
