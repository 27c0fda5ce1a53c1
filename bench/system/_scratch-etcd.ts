import { startEtcd } from '../../test/helpers/etcd-cluster.js';
import { startMeasured, startSource } from './processes.js';
import { syncRun } from './replication.js';
import { execSync } from 'node:child_process';

const n = Number(process.env['N'] ?? 20000);
const source = await startSource(4096);
await source.request({ type: 'seed', n, shape: 'widget' });
const cluster = await startEtcd({ members: 1 });
const etcdPid = cluster.members[0]!.pid;
const ticks = (pid: number): number => { const f = execSync(`cat /proc/${pid}/stat`, { encoding: 'utf8' }).split(') ')[1]!.split(' '); return Number(f[11]) + Number(f[12]); };
const m = await startMeasured(source.url, { store: { backend: 'etcd', endpoints: cluster.endpoints, prefix: '/x' }, ...(process.env['W'] ? { replicationWorkers: Number(process.env['W']) } : {}) });
const e0 = ticks(etcdPid), m0 = ticks(m.pid);
const s = await syncRun(source, m, n, 300_000);
const e1 = ticks(etcdPid), m1 = ticks(m.pid);
console.log('sync', s.perSecond.toFixed(0), 'seconds', ((s.ms ?? 0) / 1000).toFixed(1), 'etcd cpu s', (e1 - e0) / 100, 'measured cpu s', (m1 - m0) / 100);
await m.stop();
await source.stop();
await cluster.stop();
