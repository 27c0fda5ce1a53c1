import { startEtcd } from './test/helpers/etcd-cluster.ts';
import { Etcd3 } from 'etcd3';
const etcd = await startEtcd({ members: 1 });
const client = new Etcd3({ hosts: [...etcd.endpoints] });
const value = Buffer.from(JSON.stringify({ metadata: { name: 'x' }, spec: { v: 'x'.repeat(600) } }));
for (const [batch, conc] of [[32, 8], [64, 4], [128, 4]] as const) {
  const N = 40000; let next = 0; const t0 = performance.now(); const cpu0 = process.cpuUsage();
  await Promise.all(Array.from({ length: conc }, async () => { while (next < N) { const start = next; next += batch;
    const keys = Array.from({ length: batch }, (_, j) => Buffer.from(`/p/b${batch}/k${start + j}`));
    const res = await client.kv.txn({ compare: keys.map((key) => ({ key, target: 'Create' as never, result: 'Equal' as never, create_revision: '0' })), success: keys.map((key) => ({ request_put: { key, value } })), failure: [] });
    if (!res.succeeded) throw new Error('failed');
  } }));
  const ms = performance.now() - t0; const cpu = process.cpuUsage(cpu0);
  console.log(`batch ${batch} x conc ${conc}: ${(N / ms * 1000).toFixed(0)} objects/s, client cpu ${((cpu.user + cpu.system) / N).toFixed(0)} µs/object`);
}
client.close(); await etcd.stop();
