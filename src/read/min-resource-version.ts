// The read-your-writes token: what a facade write answers (REST header
// `X-Cachegate-Resource-Version`, the same header on a GraphQL mutation's HTTP answer) and what a
// read passes back as `minResourceVersion` to wait for that write. The pair lives here, side by
// side, so the written form and the parsed form cannot drift.
//
// Two forms are read:
//   <shard>/<cluster>/<group>/<resource>/<rv>  what writes answer: wait for that one resource of
//                                              the logical cluster (group `core` for the core group)
//   <shard>/<cluster>/<rv>                     the older form: wait for every resource replicated
//                                              in the logical cluster
// Anything else is a BadRequest Status naming the part that is wrong.

import { groupFromName, groupName } from '../apimachinery/gvr.js';
import type { GroupResource } from '../apimachinery/gvr.js';
import { LOGICAL_CLUSTER_NAME_PATTERN } from '../apimachinery/logical-cluster.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../apimachinery/name-validation.js';
import { AppError } from '../errors.js';

/** MinResourceVersion is one parsed token. */
export interface MinResourceVersion {
  readonly shard: string;
  readonly cluster: string;
  /** resource is what the write wrote (group '' for core); undefined (the 3-part form): every resource of the cluster. */
  readonly resource?: GroupResource;
  readonly resourceVersion: bigint;
}

/** WrittenVersion is where a write went and the source resourceVersion it produced (a WriteResult has this shape). */
export interface WrittenVersion {
  readonly shard: string;
  readonly cluster: string;
  /** resource: group '' (or `core`) for the core group. */
  readonly resource: GroupResource;
  /** resourceVersion is the source's, a decimal string ('' when the source gave none). */
  readonly resourceVersion: string;
}

const FORMS = '<shard>/<cluster>/<group>/<resource>/<resourceVersion> (as a write\'s X-Cachegate-Resource-Version gives it) or <shard>/<cluster>/<resourceVersion>';
const DECIMAL = /^[0-9]{1,40}$/;

/** minResourceVersionOf is the token of a write, or undefined when the source gave no resourceVersion. */
export function minResourceVersionOf(written: WrittenVersion): string | undefined {
  if (written.resourceVersion === '') return undefined;
  return `${written.shard}/${written.cluster}/${groupName(written.resource.group)}/${written.resource.resource}/${written.resourceVersion}`;
}

/** parseMinResourceVersion reads either form; anything else is a BadRequest saying which part is wrong. */
export function parseMinResourceVersion(value: string): MinResourceVersion {
  const parts = value.split('/');
  if (parts.length === 3) {
    const [shard = '', cluster = '', rv = ''] = parts;
    return { ...location(value, shard, cluster), resourceVersion: decimal(value, rv) };
  }
  if (parts.length === 5) {
    const [shard = '', cluster = '', group = '', resource = '', rv = ''] = parts;
    return { ...location(value, shard, cluster), resource: groupResource(value, group, resource), resourceVersion: decimal(value, rv) };
  }
  throw invalid(value, `it has ${parts.length} part${parts.length === 1 ? '' : 's'} separated by "/"`);
}

function location(value: string, shard: string, cluster: string): { shard: string; cluster: string } {
  if (shard === '') throw invalid(value, 'the shard is empty');
  // `*` or any other non-name could never be replicated: a read naming it would only wait out the
  // bound and answer 504 for what is the client's mistake.
  if (!LOGICAL_CLUSTER_NAME_PATTERN.test(cluster)) throw invalid(value, `"${cluster}" is not a logical cluster name`);
  return { shard, cluster };
}

function groupResource(value: string, group: string, resource: string): GroupResource {
  if (group === '' || isDNS1123Subdomain(group).length > 0) throw invalid(value, `"${group}" is not an API group (write \`core\` for the core group)`);
  if (isDNS1123Label(resource).length > 0) throw invalid(value, `"${resource}" is not a resource name`);
  return { group: groupFromName(group), resource };
}

function decimal(value: string, rv: string): bigint {
  if (!DECIMAL.test(rv)) throw invalid(value, `the resourceVersion "${rv}" is not a decimal number`);
  return BigInt(rv);
}

function invalid(value: string, problem: string): AppError {
  return new AppError('BadRequest', `invalid minResourceVersion "${value}": ${problem}; want ${FORMS}`, {
    causes: [{ reason: 'FieldValueInvalid', field: 'minResourceVersion', message: problem }],
  });
}
