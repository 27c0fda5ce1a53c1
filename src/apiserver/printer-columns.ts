// A CRD version's additionalPrinterColumns, as `kubectl get` shows them: each column a JSONPath
// into the object and a type that says how its value prints (a date as the time since then, as
// kube-apiserver prints it). Priority 0 columns are shown always, others only with `-o wide`.

import type { KubeObject } from '../apimachinery/object-meta.js';
import { isPlainObject } from '../apimachinery/object-meta.js';
import { findAll, parseJsonPath } from '../apimachinery/json-path.js';
import { age } from './age.js';

/** PrinterColumn is one additionalPrinterColumns entry, read defensively. */
export interface PrinterColumn {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
  readonly jsonPath: string;
}

/** PrintedCell is a table cell: what kubectl prints, or null for `<none>`. */
export type PrintedCell = string | number | boolean | null;

/** readPrinterColumns reads a CRD version's additionalPrinterColumns (entries without name or jsonPath are left out). */
export function readPrinterColumns(value: unknown): PrinterColumn[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isPlainObject).flatMap((column) => {
    const name = typeof column['name'] === 'string' ? column['name'] : '';
    const jsonPath = typeof column['jsonPath'] === 'string' ? column['jsonPath'] : '';
    if (name === '' || jsonPath === '') return [];
    return [{
      name,
      jsonPath,
      type: typeof column['type'] === 'string' ? column['type'] : 'string',
      format: typeof column['format'] === 'string' ? column['format'] : '',
      description: typeof column['description'] === 'string' ? column['description'] : '',
      priority: typeof column['priority'] === 'number' && Number.isInteger(column['priority']) ? column['priority'] : 0,
    }];
  });
}

/**
 * cellPrinter reads a column's path once and gives the function that prints its cell for an
 * object: the values found joined by commas, or null when the path finds none.
 */
export function cellPrinter(column: PrinterColumn): (obj: KubeObject, now: number) => PrintedCell {
  const steps = parseJsonPath(column.jsonPath);
  return (obj, now) => printedCell(column, steps === undefined ? [] : findAll(steps, obj), now);
}

function printedCell(column: PrinterColumn, found: readonly unknown[], now: number): PrintedCell {
  const values = found.filter((value) => value !== null && value !== undefined);
  const [only] = values;
  if (only === undefined) return null;
  if (values.length > 1) return values.map((value) => (typeof value === 'object' ? JSON.stringify(value) : String(value))).join(',');
  if (column.type === 'date' && typeof only === 'string') return age(only, now);
  if (typeof only === 'number' || typeof only === 'boolean' || typeof only === 'string') return only;
  return JSON.stringify(only);
}
