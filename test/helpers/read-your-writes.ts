// Read-your-writes across replicas, as the HA tests drive it: rounds of create → patch → delete
// of one ConfigMap after another through the REST facade, each write through a replica chosen at
// random and read at once through another with a plain GET (consistent by default on etcd). Every
// ConfigMap written is deleted again by the last of its three rounds.

import { expect } from 'vitest';
import { request } from './kube-http.js';

const OBJECTS = '/v1/objects/core/v1/configmaps';

/** ReplicaUrl is any running replica: its base URL. */
export interface ReplicaUrl {
  readonly url: string;
}

/** Outcome counts what the readers saw against what was written. */
export interface Outcome {
  readonly misses: string[];
  readonly stale: string[];
}

/** pick is a writer and a different reader, at random. */
export function pick<T extends ReplicaUrl>(apps: readonly T[]): { writer: T; reader: T } {
  const w = Math.floor(Math.random() * apps.length);
  const r = (w + 1 + Math.floor(Math.random() * (apps.length - 1))) % apps.length;
  return { writer: apps[w] as T, reader: apps[r] as T };
}

/**
 * writeThenRead runs rounds of create → patch → delete of one ConfigMap after another, each write
 * through a random replica and read at once through another (the default read: consistent).
 */
export async function writeThenRead(apps: readonly ReplicaUrl[], prefix: string, rounds: number, labels: Record<string, string> = {}): Promise<Outcome> {
  const outcome: Outcome = { misses: [], stale: [] };
  for (let i = 0; i < rounds; i++) {
    const name = `${prefix}-${Math.floor(i / 3)}`;
    const { writer, reader } = pick(apps);
    const step = i % 3;
    const written = step === 0
      ? await request('POST', `${writer.url}${OBJECTS}?cluster=root&namespace=default`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels }, data: { round: String(i) } })
      : step === 1
        ? await request('PATCH', `${writer.url}${OBJECTS}/${name}?cluster=root&namespace=default`, { data: { round: String(i) } }, 'application/merge-patch+json')
        : await request('DELETE', `${writer.url}${OBJECTS}/${name}?cluster=root&namespace=default`);
    expect(written.status, JSON.stringify(written.body)).toBe(step === 0 ? 201 : 200);
    const read = await request('GET', `${reader.url}${OBJECTS}/${name}?cluster=root&namespace=default`);
    if (step === 2) {
      if (read.status !== 404) outcome.stale.push(`round ${i}: ${name} deleted, read ${read.status}`);
      continue;
    }
    if (read.status === 404) {
      outcome.misses.push(`round ${i}: ${name} not found`);
      continue;
    }
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    const wrote = BigInt(written.body.metadata.resourceVersion as string);
    if (BigInt(read.body.metadata.resourceVersion as string) < wrote || read.body.data?.round !== String(i)) {
      outcome.stale.push(`round ${i}: ${name} read rv ${read.body.metadata.resourceVersion} round ${read.body.data?.round}, wrote rv ${wrote}`);
    }
  }
  return outcome;
}

