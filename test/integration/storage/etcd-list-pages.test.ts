// How a list of an etcd prefix is cut into pages, against a real etcd: every page is bounded by
// bytes as well as by keys, so a list of large values never holds thousands of them at once, and
// the pages still add up to every key once, in key order, at one revision.
//   case 1: large values: the first page is small, later pages stay within the byte bound
//   case 2: small values: pages stay within the key bound
//   case 3: values that grow as the list goes: later pages shrink to follow them

import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoredEntry } from '../../../src/storage/backend.js';
import { openEtcdBackend } from '../../../src/storage/etcd/etcd-backend.js';
import type { EtcdBackend } from '../../../src/storage/etcd/etcd-backend.js';
import { listPages } from '../../../src/storage/etcd/etcd-list.js';
import type { PageLimits } from '../../../src/storage/etcd/etcd-list.js';
import { suiteEtcd } from '../../helpers/suite-etcd.js';

const etcd = suiteEtcd();
const opened: EtcdBackend[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((backend) => backend.close()));
});

async function open(): Promise<EtcdBackend> {
  const backend = await openEtcdBackend({ endpoints: etcd.cluster.endpoints, prefix: `/pages-${randomUUID().slice(0, 8)}`, compactIntervalMs: 0 });
  opened.push(backend);
  return backend;
}

const key = (i: number): string => `/v/${String(i).padStart(5, '0')}`;

/** fill creates count keys whose values are valueOf(i), a hundred at a time. */
async function fill(backend: EtcdBackend, count: number, valueOf: (i: number) => string): Promise<void> {
  for (let from = 0; from < count; from += 100) {
    await Promise.all(Array.from({ length: Math.min(100, count - from) }, async (_, j) => {
      const result = await backend.commit({ kind: 'create', key: key(from + j), value: valueOf(from + j) });
      if (!result.ok) throw new Error(`create of ${key(from + j)} did not hold`);
    }));
  }
}

/** pagesOf lists the prefix with limits and returns the pages as they came, and the list's revision. */
async function pagesOf(backend: EtcdBackend, limits: PageLimits): Promise<{ pages: StoredEntry[][]; revision: number }> {
  const pages: StoredEntry[][] = [];
  const revision = await listPages(backend, '/v/', { page: (entries) => pages.push(entries), restart: () => pages.splice(0) }, limits);
  return { pages, revision };
}

function valueBytes(page: readonly StoredEntry[]): number {
  return page.reduce((sum, entry) => sum + entry.value.length, 0);
}

function expectWhole(pages: readonly StoredEntry[][], count: number): void {
  expect(pages.flat().map((entry) => entry.key)).toEqual(Array.from({ length: count }, (_, i) => key(i)));
}

describe('etcd list pages', () => {
  it('case 1: large values: the first page is small, later pages stay within the byte bound', async () => {
    const backend = await open();
    await fill(backend, 300, (i) => `${i}:`.padEnd(4096, 'x'));
    const revision = await backend.currentRevision();
    const limits = { keys: 5000, bytes: 64 * 1024 };
    const { pages, revision: listed } = await pagesOf(backend, limits);
    expect(listed).toBe(revision);
    expectWhole(pages, 300);
    expect(pages[0]?.length).toBeLessThanOrEqual(64);
    for (const page of pages.slice(1)) expect(valueBytes(page)).toBeLessThanOrEqual(limits.bytes);
    // After the first 64, 236 values of 4 KiB in pages of at most 64 KiB.
    expect(pages.length).toBeGreaterThanOrEqual(1 + Math.ceil((236 * 4096) / limits.bytes));
  });

  it('case 2: small values: pages stay within the key bound', async () => {
    const backend = await open();
    await fill(backend, 500, (i) => String(i));
    const { pages } = await pagesOf(backend, { keys: 70, bytes: 16 * 2 ** 20 });
    expectWhole(pages, 500);
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(70);
    expect(pages.length).toBe(1 + Math.ceil((500 - 64) / 70));
  });

  it('case 3: values that grow as the list goes: later pages shrink to follow them', async () => {
    const backend = await open();
    await fill(backend, 900, (i) => (i < 300 ? String(i) : `${i}:`.padEnd(8192, 'y')));
    const limits = { keys: 50, bytes: 128 * 1024 };
    const { pages } = await pagesOf(backend, limits);
    expectWhole(pages, 900);
    // Pages are cut a few ahead of those received: the ones cut before the large values arrived
    // hold up to the key bound; every page cut after fits the byte bound.
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(limits.keys);
    for (const page of pages.slice(-10)) expect(valueBytes(page)).toBeLessThanOrEqual(limits.bytes);
    expect(pages.length).toBeGreaterThan(Math.ceil((600 * 8192) / limits.bytes));
  });
});
