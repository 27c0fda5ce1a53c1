// A durable store decodes what it loads through the SharedValues table it is given: handed the
// table the app's source clients use, a restarted store's objects hold the very records the
// sources' objects hold (and the replication controller compares a copy with its original mostly
// by reference). Without a table, the store keeps a table of its own.
//   case 1: given a table that shares a record already, the loaded object holds that record
//   case 2: without one, the loaded object holds an equal record of its own

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SharedValues } from '../../../src/apimachinery/shared-values.js';
import { openLocalBackend } from '../../../src/storage/local/local-backend.js';
import { openDurableStore } from '../../../src/store/durable-store.js';

const REF = { cluster: 'c1', group: 'apps', resource: 'deployments' };
const SPEC = { replicas: 3, template: { spec: { containers: [{ name: 'web', image: 'registry.example.com/web:1.2.3' }] } } };

describe('a durable store given a SharedValues table', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function loadedSpec(table: SharedValues | undefined): Promise<unknown> {
    const dataDir = mkdtempSync(join(tmpdir(), 'cachegate-shared-values-'));
    dirs.push(dataDir);
    const written = await openLocalBackend({ dataDir, fsync: false });
    const first = await openDurableStore({ backend: written, space: 'source' });
    await first.store.create(REF, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec: structuredClone(SPEC) });
    await first.stop();
    await written.close();
    const reopened = await openLocalBackend({ dataDir, fsync: false });
    const second = await openDurableStore({ backend: reopened, space: 'source', ...(table ? { sharedValues: table } : {}) });
    try {
      const loaded = await second.store.get({ ...REF, namespace: 'default', name: 'web' });
      return loaded.spec;
    } finally {
      await second.stop();
      await reopened.close();
    }
  }

  it('case 1: given a table that shares a record already, the loaded object holds that record', async () => {
    const table = new SharedValues();
    // A record is kept once every part of it was seen before: each level of nesting takes one more sighting.
    const seen = Array.from({ length: 8 }, () => table.freeze(JSON.parse(JSON.stringify({ spec: SPEC })) as { spec: unknown }));
    const kept = seen[7]?.spec;
    expect(kept).toBe(seen[6]?.spec);
    expect(await loadedSpec(table)).toBe(kept);
  });

  it('case 2: without one, the loaded object holds an equal record of its own', async () => {
    const spec = await loadedSpec(undefined);
    expect(spec).toEqual(SPEC);
    expect(Object.isFrozen(spec)).toBe(true);
  });
});
