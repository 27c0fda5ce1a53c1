// RFC 6902 JSON patch over immutable documents. Each operation copies only the containers on
// its path and shares everything else, so a deeply frozen stored object can be patched directly.
// Operations that do not apply (missing path, failed test, bad index) are 422 Invalid, as the
// Kubernetes API server answers; a malformed patch document is 400 BadRequest.

import { AppError } from '../errors.js';
import { jsonEqual } from './deep-equal.js';
import { readJsonPatch } from './json-patch-document.js';
import type { JsonPatchOperation } from './json-patch-document.js';
import { formatJsonPointer } from './json-pointer.js';
import { isPlainObject } from './object-meta.js';
import { getOwn, setOwn } from './set-own.js';

type Edit = (container: unknown, token: string) => unknown;

/** applyJsonPatch applies an RFC 6902 patch document to a value and returns the new value. */
export function applyJsonPatch(doc: unknown, ops: unknown): unknown {
  const operations = readJsonPatch(ops);
  let current = doc;
  operations.forEach((operation, index) => {
    current = new OperationRun(operation, index).apply(current);
  });
  return current;
}

// One operation applied to one document; it exists to word errors with the operation's index.
class OperationRun {
  readonly #operation: JsonPatchOperation;
  readonly #label: string;

  constructor(operation: JsonPatchOperation, index: number) {
    this.#operation = operation;
    const from = operation.from === undefined ? '' : ` from ${JSON.stringify(operation.from)}`;
    this.#label = `JSON patch operation ${index} (${operation.op}${from} at ${JSON.stringify(operation.path)})`;
  }

  apply(doc: unknown): unknown {
    const { op, pathTokens: path, fromTokens: from = [], value } = this.#operation;
    switch (op) {
      case 'add':
        return this.#add(doc, path, value);
      case 'remove':
        return this.#edit(doc, path, (container, token) => this.#removeChild(container, token));
      case 'replace':
        return this.#replace(doc, path, value);
      case 'move':
        if (from.length < path.length && from.every((token, i) => token === path[i])) {
          throw this.#fail('a value cannot be moved into one of its own children');
        }
        return this.#add(this.#edit(doc, from, (c, t) => this.#removeChild(c, t)), path, this.#get(doc, from));
      case 'copy':
        return this.#add(doc, path, this.#get(doc, from));
      case 'test':
        if (!jsonEqual(this.#get(doc, path), value)) throw this.#fail('test failed: the value does not match');
        return doc;
    }
  }

  #add(doc: unknown, path: readonly string[], value: unknown): unknown {
    if (path.length === 0) return value;
    return this.#edit(doc, path, (container, token) => {
      if (Array.isArray(container)) {
        const index = token === '-' ? container.length : this.#index(container, token, container.length);
        return [...container.slice(0, index), value, ...container.slice(index)];
      }
      return this.#withChild(container, token, value);
    });
  }

  #replace(doc: unknown, path: readonly string[], value: unknown): unknown {
    if (path.length === 0) return value;
    return this.#edit(doc, path, (container, token) => {
      this.#child(container, token, path); // the target must exist
      return this.#withChild(container, token, value);
    });
  }

  #removeChild(container: unknown, token: string): unknown {
    if (Array.isArray(container)) {
      const index = this.#index(container, token, container.length - 1);
      return [...container.slice(0, index), ...container.slice(index + 1)];
    }
    if (!isPlainObject(container) || !Object.hasOwn(container, token)) {
      throw this.#fail(`there is no member ${JSON.stringify(token)} to remove`);
    }
    const copy = { ...container };
    delete copy[token];
    return copy;
  }

  // Rebuilds the containers from the root down to the parent of the last token, where edit runs.
  #edit(doc: unknown, path: readonly string[], edit: Edit, depth = 0): unknown {
    if (path.length === 0) throw this.#fail('the whole document cannot be removed');
    const token = path[depth] ?? '';
    if (depth === path.length - 1) return edit(doc, token);
    const child = this.#child(doc, token, path.slice(0, depth + 1));
    return this.#withChild(doc, token, this.#edit(child, path, edit, depth + 1));
  }

  #get(doc: unknown, path: readonly string[]): unknown {
    let node = doc;
    for (let depth = 0; depth < path.length; depth++) {
      node = this.#child(node, path[depth] ?? '', path.slice(0, depth + 1));
    }
    return node;
  }

  #child(node: unknown, token: string, at: readonly string[]): unknown {
    if (Array.isArray(node)) return node[this.#index(node, token, node.length - 1)];
    if (isPlainObject(node) && Object.hasOwn(node, token)) return getOwn(node, token);
    throw this.#fail(`no value at ${JSON.stringify(formatJsonPointer(at))}`);
  }

  #withChild(container: unknown, token: string, value: unknown): unknown {
    if (Array.isArray(container)) {
      const copy = [...container];
      copy[this.#index(container, token, container.length - 1)] = value;
      return copy;
    }
    if (!isPlainObject(container)) throw this.#fail('the parent of the target is not an object or array');
    const copy = { ...container };
    setOwn(copy, token, value);
    return copy;
  }

  // Array indexes are decimal without leading zeros; max is the highest index allowed.
  #index(array: readonly unknown[], token: string, max: number): number {
    if (!/^(0|[1-9][0-9]*)$/.test(token)) {
      throw this.#fail(`${JSON.stringify(token)} is not a valid index into an array of ${array.length}`);
    }
    const index = Number(token);
    if (index > max) throw this.#fail(`index ${index} is out of bounds for an array of ${array.length}`);
    return index;
  }

  #fail(reason: string): AppError {
    return new AppError('Invalid', `${this.#label}: ${reason}`);
  }
}
