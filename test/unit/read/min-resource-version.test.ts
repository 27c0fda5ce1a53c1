// The read-your-writes token: a write's token names its resource and parses back to it; the
// older 3-part form still parses (every resource of the cluster); anything else is a BadRequest
// whose message names the wrong part.

import { describe, expect, it } from 'vitest';
import { isAppError } from '../../../src/errors.js';
import { minResourceVersionOf, parseMinResourceVersion } from '../../../src/read/min-resource-version.js';
import type { MinResourceVersion, WrittenVersion } from '../../../src/read/min-resource-version.js';

describe('parseMinResourceVersion: the accepted forms', () => {
  it.each<[string, string, MinResourceVersion]>([
    ['case 1: a write\'s token names its resource', 's/root/machines.svm.io/instances/42',
      { shard: 's', cluster: 'root', resource: { group: 'machines.svm.io', resource: 'instances' }, resourceVersion: 42n }],
    ['case 2: `core` is the core group, read as \'\'', 'embedded/root:org/core/configmaps/7',
      { shard: 'embedded', cluster: 'root:org', resource: { group: '', resource: 'configmaps' }, resourceVersion: 7n }],
    ['case 3: the 3-part form has no resource (every resource of the cluster)', 's/root:org/42',
      { shard: 's', cluster: 'root:org', resourceVersion: 42n }],
    ['case 4: a 40-digit resourceVersion is exact', 's/root/apps/deployments/1234567890123456789012345678901234567890',
      { shard: 's', cluster: 'root', resource: { group: 'apps', resource: 'deployments' }, resourceVersion: 1234567890123456789012345678901234567890n }],
  ])('%s', (_name, value, parsed) => {
    expect(parseMinResourceVersion(value)).toEqual(parsed);
  });
});

describe('parseMinResourceVersion: refused values (BadRequest naming the problem)', () => {
  it.each<[string, string, string]>([
    ['case 5: empty', '', 'it has 1 part'],
    ['case 6: no separator', 'garbage', 'it has 1 part'],
    ['case 7: two parts', 's/root', 'it has 2 parts'],
    ['case 8: four parts (a resource without a group)', 's/root/instances/5', 'it has 4 parts'],
    ['case 9: six parts', 's/root/g.io/things/5/6', 'it has 6 parts'],
    ['case 10: empty shard', '/root/1', 'the shard is empty'],
    ['case 11: empty cluster', 's//1', '"" is not a logical cluster name'],
    ['case 12: wildcard cluster (could never be replicated)', 's/*/1', '"*" is not a logical cluster name'],
    ['case 13: uppercase cluster', 's/Root/core/configmaps/1', '"Root" is not a logical cluster name'],
    ['case 14: cluster ending in a dash', 's/root-/1', '"root-" is not a logical cluster name'],
    ['case 15: empty group (the core group is written core)', 's/root//configmaps/1', '"" is not an API group'],
    ['case 16: group that is not a DNS subdomain', 's/root/Bad_Group/things/1', '"Bad_Group" is not an API group'],
    ['case 17: empty resource', 's/root/core//1', '"" is not a resource name'],
    ['case 18: resource with a dot', 's/root/core/config.maps/1', '"config.maps" is not a resource name'],
    ['case 19: empty resourceVersion', 's/root/', 'the resourceVersion "" is not a decimal number'],
    ['case 20: non-decimal resourceVersion', 's/root/x', 'the resourceVersion "x" is not a decimal number'],
    ['case 21: negative resourceVersion', 's/root/core/configmaps/-1', 'the resourceVersion "-1" is not a decimal number'],
    ['case 22: exponent', 's/root/1e3', 'the resourceVersion "1e3" is not a decimal number'],
    ['case 23: space', 's/root/ 1', 'the resourceVersion " 1" is not a decimal number'],
  ])('%s', (_name, value, problem) => {
    let thrown: unknown;
    try {
      parseMinResourceVersion(value);
    } catch (err) {
      thrown = err;
    }
    expect(isAppError(thrown, 'BadRequest')).toBe(true);
    const message = (thrown as Error).message;
    expect(message).toContain(`invalid minResourceVersion "${value}": ${problem}`);
    expect(message).toContain('<shard>/<cluster>/<group>/<resource>/<resourceVersion>');
    expect(isAppError(thrown) && thrown.details.causes?.[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'minResourceVersion' });
  });
});

describe('minResourceVersionOf: the token a write answers', () => {
  it.each<[string, WrittenVersion, string | undefined]>([
    ['case 24: group and resource between the cluster and the resourceVersion',
      { shard: 's', cluster: 'root', resource: { group: 'machines.svm.io', resource: 'instances' }, resourceVersion: '42' }, 's/root/machines.svm.io/instances/42'],
    ['case 25: the core group is written core', { shard: 'embedded', cluster: 'root', resource: { group: '', resource: 'configmaps' }, resourceVersion: '7' },
      'embedded/root/core/configmaps/7'],
    ['case 26: no resourceVersion from the source: no token', { shard: 's', cluster: 'root', resource: { group: '', resource: 'configmaps' }, resourceVersion: '' },
      undefined],
  ])('%s', (_name, written, token) => {
    expect(minResourceVersionOf(written)).toBe(token);
  });

  it('case 27: a token parses back to what was written', () => {
    const written: WrittenVersion = { shard: 's', cluster: 'root:org', resource: { group: '', resource: 'secrets' }, resourceVersion: '99' };
    expect(parseMinResourceVersion(minResourceVersionOf(written)!)).toEqual({
      shard: 's', cluster: 'root:org', resource: { group: '', resource: 'secrets' }, resourceVersion: 99n,
    });
  });
});
