// ClusterObjects keeps objects by (cluster, namespace, name) in nested maps.
//   case 1: same-named objects of two clusters and two namespaces stay apart.
//   case 2: set answers the object it replaced; size counts objects, not writes.
//   case 3: delete forgets one object and reports whether it was there; values() lists what is left.
//   case 4: a namespace of 40,000 objects (past the point where its names spread over chunks) lists
//           them in the order they were set, as a list applied in the source's order wrote them.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { ClusterObjects } from '../../../src/kube/cluster-objects.js';

/** obj is object `name` of a cluster (the `cluster` annotation) and namespace, told apart by its tag. */
const obj = (cluster: string, namespace: string, name: string, tag: string): KubeObject => ({
  metadata: { name, ...(namespace === '' ? {} : { namespace }), annotations: { cluster, tag } },
});
const clusterOf = (o: KubeObject): string => o.metadata.annotations?.['cluster'] ?? '';
const tags = (objects: Iterable<KubeObject>): string[] => [...objects].map((o) => o.metadata.annotations?.['tag'] ?? '').sort();

describe('ClusterObjects', () => {
  it('case 1: same-named objects of two clusters and two namespaces stay apart', () => {
    const objects = new ClusterObjects(clusterOf);
    objects.set(obj('c1', '', 'a', 'c1/a'));
    objects.set(obj('c2', '', 'a', 'c2/a'));
    objects.set(obj('c1', 'ns', 'a', 'c1/ns/a'));
    expect(objects.get('c1', '', 'a')?.metadata.annotations?.['tag']).toBe('c1/a');
    expect(objects.get('c2', '', 'a')?.metadata.annotations?.['tag']).toBe('c2/a');
    expect(objects.get('c1', 'ns', 'a')?.metadata.annotations?.['tag']).toBe('c1/ns/a');
    expect(objects.get('c2', 'ns', 'a')).toBeUndefined();
    expect(objects.find(obj('c2', 'ns', 'a', 'probe')) !== undefined).toBe(false);
    expect(objects.size).toBe(3);
  });

  it('case 2: set answers the object it replaced; size counts objects, not writes', () => {
    const objects = new ClusterObjects(clusterOf);
    const first = obj('c1', '', 'a', 'first');
    expect(objects.set(first)).toBeUndefined();
    expect(objects.set(obj('c1', '', 'a', 'second'))).toBe(first);
    expect(objects.size).toBe(1);
    expect(tags(objects.values())).toEqual(['second']);
  });

  it('case 3: delete forgets one object and reports whether it was there', () => {
    const objects = new ClusterObjects(clusterOf);
    objects.set(obj('c1', 'ns', 'a', 'a'));
    objects.set(obj('c1', 'ns', 'b', 'b'));
    expect(objects.delete(obj('c1', 'ns', 'a', 'a'))).toBe(true);
    expect(objects.delete(obj('c1', 'ns', 'a', 'a'))).toBe(false);
    expect(objects.delete(obj('c9', 'ns', 'b', 'b'))).toBe(false);
    expect(tags(objects.values())).toEqual(['b']);
    expect(objects.delete(obj('c1', 'ns', 'b', 'b'))).toBe(true);
    expect(objects.size).toBe(0);
    expect([...objects.values()]).toEqual([]);
    objects.set(obj('c1', 'ns', 'b', 'again'));
    expect(tags(objects.values())).toEqual(['again']);
  });

  it('case 4: a namespace of 40,000 objects lists them in the order they were set, updates in place, re-adds last', () => {
    const objects = new ClusterObjects(clusterOf);
    const names = Array.from({ length: 40_000 }, (_, i) => `w-${String(39_999 - i).padStart(5, '0')}`);
    for (const name of names) objects.set(obj('c1', 'ns', name, name));
    objects.set(obj('c1', 'ns', names[7] ?? '', 'updated'));
    objects.delete(obj('c1', 'ns', names[0] ?? '', ''));
    objects.set(obj('c1', 'ns', names[0] ?? '', 'again'));
    const want = [...names.slice(1, 7), 'updated', ...names.slice(8), 'again'];
    expect([...objects.values()].map((o) => o.metadata.annotations?.['tag'])).toEqual(want);
    expect(objects.size).toBe(40_000);
    expect(objects.get('c1', 'ns', names[20_000] ?? '')?.metadata.name).toBe(names[20_000]);
  });
});
