// Secrets: `stringData` is a write-only convenience folded into base64 `data`, as Kubernetes does.

import { AppError } from '../../errors.js';
import { isPlainObject } from '../../apimachinery/object-meta.js';
import type { ResourceHooks } from '../resource-hooks.js';

/** secretHooks folds stringData into data and checks data values are base64 strings. */
export function secretHooks(): ResourceHooks {
  return {
    admit(_ctx, obj) {
      const data: Record<string, unknown> = isPlainObject(obj['data']) ? { ...obj['data'] } : {};
      const stringData = obj['stringData'];
      if (stringData !== undefined && !isPlainObject(stringData)) throw new AppError('BadRequest', 'stringData must be a map of strings');
      for (const [key, value] of Object.entries(stringData ?? {})) {
        if (typeof value !== 'string') throw new AppError('BadRequest', `stringData[${key}] must be a string`);
        data[key] = Buffer.from(value, 'utf8').toString('base64');
      }
      for (const [key, value] of Object.entries(data)) {
        if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) {
          throw new AppError('BadRequest', `data[${key}] must be a base64-encoded string`);
        }
      }
      delete obj['stringData'];
      if (Object.keys(data).length > 0) obj['data'] = data;
      if (obj['type'] === undefined) obj['type'] = 'Opaque';
    },
  };
}
