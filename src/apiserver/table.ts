// Server-side printing for `kubectl get`: kubectl asks for `as=Table` and prints the columns the
// server chooses. Built-ins get the columns kubectl users know; everything else Name and Age.

import type { KubeObject } from '../apimachinery/object-meta.js';
import { isPlainObject } from '../apimachinery/object-meta.js';
import type { ResourceInfo } from './resource-info.js';

interface ColumnDefinition {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
}

interface Column extends ColumnDefinition {
  readonly cell: (obj: KubeObject, now: number) => string | number;
}

/** TableMeta is the list metadata a table carries. */
export interface TableMeta {
  readonly resourceVersion?: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

/** wantsTable tells whether an Accept header asks for a meta.k8s.io Table. */
export function wantsTable(accept: string | undefined): boolean {
  return accept !== undefined && /;\s*as=Table/.test(accept);
}

const nameColumn: Column = {
  name: 'Name', type: 'string', format: 'name', priority: 0,
  description: 'Name must be unique within a namespace.',
  cell: (obj) => obj.metadata.name ?? '',
};

const ageColumn: Column = {
  name: 'Age', type: 'string', format: '', priority: 0,
  description: 'Time since the object was created.',
  cell: (obj, now) => age(obj.metadata.creationTimestamp, now),
};

function countOf(field: string): (obj: KubeObject) => number {
  return (obj) => {
    const value = obj[field];
    return isPlainObject(value) ? Object.keys(value).length : 0;
  };
}

const extraColumns: Readonly<Record<string, readonly Column[]>> = {
  '/namespaces': [{
    name: 'Status', type: 'string', format: '', priority: 0, description: 'The phase of the namespace.',
    cell: (obj) => (isPlainObject(obj['status']) && typeof obj['status']['phase'] === 'string' ? obj['status']['phase'] : ''),
  }],
  '/configmaps': [{
    name: 'Data', type: 'integer', format: '', priority: 0, description: 'Number of data keys.',
    cell: (obj) => countOf('data')(obj) + countOf('binaryData')(obj),
  }],
  '/secrets': [
    { name: 'Type', type: 'string', format: '', priority: 0, description: 'The type of the secret.',
      cell: (obj) => (typeof obj['type'] === 'string' ? obj['type'] : 'Opaque') },
    { name: 'Data', type: 'integer', format: '', priority: 0, description: 'Number of data keys.', cell: countOf('data') },
  ],
};

/** toTable prints objects of one resource as a Table whose rows carry each object's metadata. */
export function toTable(info: ResourceInfo, objects: readonly KubeObject[], meta: TableMeta, now = Date.now()): Record<string, unknown> {
  const columns = [nameColumn, ...(extraColumns[`${info.group}/${info.resource}`] ?? []), ageColumn];
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: meta,
    columnDefinitions: columns.map(({ cell: _cell, ...definition }) => definition),
    rows: objects.map((obj) => ({
      cells: columns.map((column) => column.cell(obj, now)),
      object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata },
    })),
  };
}

/** age prints how long ago a timestamp was, the way kubectl does (`5s`, `3m20s`, `4h`, `2d`). */
export function age(timestamp: string | undefined, now: number): string {
  if (!timestamp) return '<unknown>';
  const seconds = Math.floor((now - Date.parse(timestamp)) / 1000);
  if (Number.isNaN(seconds)) return '<unknown>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (days < 730) return `${days}d`;
  return `${Math.floor(days / 365)}y`;
}
