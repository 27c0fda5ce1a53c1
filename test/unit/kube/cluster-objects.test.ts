// ClusterObjects keeps objects by (cluster, namespace, name) in nested maps.
//   case 1: same-named objects of two clusters and two namespaces stay apart.
//   case 2: set answers the object it replaced; size counts objects, not writes.
//   case 3: delete forgets one object and reports whether it was there; values() lists what is left.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { ClusterObjects } from '../../../src/kube/cluster-objects.js';

const obj = (name: string, tag: string): KubeObject => ({ metadata: { name, annotations: { tag } } });
const tags = (objects: Iterable<KubeObject>): string[] => [...objects].map((o) => o.metadata.annotations?.['tag'] ?? '').sort();

describe('ClusterObjects', () => {
  it('case 1: same-named objects of two clusters and two namespaces stay apart', () => {
    const objects = new ClusterObjects();
    objects.set('c1', '', 'a', obj('a', 'c1/a'));
    objects.set('c2', '', 'a', obj('a', 'c2/a'));
    objects.set('c1', 'ns', 'a', obj('a', 'c1/ns/a'));
    expect(objects.get('c1', '', 'a')?.metadata.annotations?.['tag']).toBe('c1/a');
    expect(objects.get('c2', '', 'a')?.metadata.annotations?.['tag']).toBe('c2/a');
    expect(objects.get('c1', 'ns', 'a')?.metadata.annotations?.['tag']).toBe('c1/ns/a');
    expect(objects.get('c2', 'ns', 'a')).toBeUndefined();
    expect(objects.has('c2', 'ns', 'a')).toBe(false);
    expect(objects.size).toBe(3);
  });

  it('case 2: set answers the object it replaced; size counts objects, not writes', () => {
    const objects = new ClusterObjects();
    const first = obj('a', 'first');
    expect(objects.set('c1', '', 'a', first)).toBeUndefined();
    expect(objects.set('c1', '', 'a', obj('a', 'second'))).toBe(first);
    expect(objects.size).toBe(1);
    expect(tags(objects.values())).toEqual(['second']);
  });

  it('case 3: delete forgets one object and reports whether it was there', () => {
    const objects = new ClusterObjects();
    objects.set('c1', 'ns', 'a', obj('a', 'a'));
    objects.set('c1', 'ns', 'b', obj('b', 'b'));
    expect(objects.delete('c1', 'ns', 'a')).toBe(true);
    expect(objects.delete('c1', 'ns', 'a')).toBe(false);
    expect(objects.delete('c9', 'ns', 'b')).toBe(false);
    expect(tags(objects.values())).toEqual(['b']);
    expect(objects.delete('c1', 'ns', 'b')).toBe(true);
    expect(objects.size).toBe(0);
    expect([...objects.values()]).toEqual([]);
    objects.set('c1', 'ns', 'b', obj('b', 'again'));
    expect(tags(objects.values())).toEqual(['again']);
  });
});
