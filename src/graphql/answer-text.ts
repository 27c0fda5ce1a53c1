// The JSON text of a GraphQL answer that only has data. Its objects are mostly the store's frozen
// objects (the JSON scalars `object` and `cachedObject`, list items), whose text JsonText keeps
// once made: REST sends the same text, and a point read asked again is not serialised again. The
// rest of the tree (GraphQL's own small objects) is written here as JSON.stringify would write it.
// An answer with errors or extensions keeps mercurius' serializer, which shapes those.

import type { JsonText } from '../apimachinery/json-text.js';
import type { KubeObject } from '../apimachinery/object-meta.js';

/** dataOnlyAnswer is an answer's data when the answer holds nothing else, else undefined. */
export function dataOnlyAnswer(payload: unknown): object | null | undefined {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  const keys = Object.keys(payload);
  if (keys.length !== 1 || keys[0] !== 'data') return undefined;
  const data = (payload as { data: unknown }).data;
  return data === null || (typeof data === 'object' && !Array.isArray(data)) ? data : undefined;
}

/** answerText is `{"data":…}` with data written as JSON.stringify would, frozen objects from json's cache. */
export function answerText(data: object | null, json: JsonText): string {
  return `{"data":${valueText(data, json) ?? 'null'}}`;
}

/** valueText is JSON.stringify(value), undefined where JSON.stringify leaves a property out. */
function valueText(value: unknown, json: JsonText): string | undefined {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return arrayText(value, json);
  const prototype: unknown = Object.getPrototypeOf(value);
  // Anything but a plain object (a Date, a class with toJSON, a Map) is JSON.stringify's to shape.
  if ((prototype !== Object.prototype && prototype !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(value);
  if (Object.isFrozen(value)) return json.of(value as KubeObject);
  return objectText(value as Record<string, unknown>, json);
}

function arrayText(items: readonly unknown[], json: JsonText): string {
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) text += ',';
    text += valueText(items[i], json) ?? 'null';
  }
  return `${text}]`;
}

function objectText(obj: Record<string, unknown>, json: JsonText): string {
  let text = '{';
  let first = true;
  for (const key of Object.keys(obj)) {
    const item = valueText(obj[key], json);
    if (item === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${item}`;
    first = false;
  }
  return `${text}}`;
}
