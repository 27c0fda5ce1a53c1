// Server-side printing for `kubectl get`: kubectl asks for `as=Table` and prints the columns the
// server chooses. Built-ins get the columns kubectl users know; everything else Name and Age.

import type { KubeObject } from '../apimachinery/object-meta.js';
import { isPlainObject } from '../apimachinery/object-meta.js';
import { age } from './age.js';
import { cellPrinter } from './printer-columns.js';
import type { PrintedCell } from './printer-columns.js';
import type { ResourceInfo } from './resource-info.js';

interface ColumnDefinition {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
}

interface Column extends ColumnDefinition {
  readonly cell: (obj: KubeObject, now: number) => PrintedCell;
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
  '/events': [
    { name: 'Last Seen', type: 'string', format: '', priority: 0, description: 'Time since the event was last seen.',
      cell: (obj, now) => age(stringField(obj, 'lastTimestamp') || stringField(obj, 'eventTime') || obj.metadata.creationTimestamp, now) },
    { name: 'Type', type: 'string', format: '', priority: 0, description: 'Normal or Warning.', cell: (obj) => stringField(obj, 'type') },
    { name: 'Reason', type: 'string', format: '', priority: 0, description: 'Why the event was recorded.', cell: (obj) => stringField(obj, 'reason') },
    { name: 'Object', type: 'string', format: '', priority: 0, description: 'The object the event is about.',
      cell: (obj) => (isPlainObject(obj['involvedObject']) ? `${String(obj['involvedObject']['kind'] ?? '').toLowerCase()}/${String(obj['involvedObject']['name'] ?? '')}` : '') },
    { name: 'Message', type: 'string', format: '', priority: 0, description: 'What happened.', cell: (obj) => stringField(obj, 'message') },
  ],
  '/secrets': [
    { name: 'Type', type: 'string', format: '', priority: 0, description: 'The type of the secret.',
      cell: (obj) => (typeof obj['type'] === 'string' ? obj['type'] : 'Opaque') },
    { name: 'Data', type: 'integer', format: '', priority: 0, description: 'Number of data keys.', cell: countOf('data') },
  ],
};

function stringField(obj: KubeObject, field: string): string {
  const value = obj[field];
  return typeof value === 'string' ? value : '';
}

/** columnsOf are a resource's columns: Name, then its printer columns if it has any, else the built-in ones and Age. */
function columnsOf(info: ResourceInfo): readonly Column[] {
  const printer = info.printerColumns ?? [];
  if (printer.length > 0) {
    return [nameColumn, ...printer.map((column): Column => {
      const { jsonPath: _path, ...definition } = column;
      return { ...definition, cell: cellPrinter(column) };
    })];
  }
  // Events print as kubectl's own event table does: their columns carry the time, no Name or Age.
  if (info.group === '' && info.resource === 'events') return extraColumns['/events'] ?? [];
  return [nameColumn, ...(extraColumns[`${info.group}/${info.resource}`] ?? []), ageColumn];
}

/** toTable prints objects of one resource as a Table whose rows carry each object's metadata. */
export function toTable(info: ResourceInfo, objects: readonly KubeObject[], meta: TableMeta, now = Date.now()): Record<string, unknown> {
  const columns = columnsOf(info);
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
