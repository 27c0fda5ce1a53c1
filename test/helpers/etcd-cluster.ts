// Real etcd for tests: one or three /usr/bin/etcd processes on free loopback ports, each with its
// own temporary data directory, so the etcd backend is tested against the server it runs on in
// production, and faults are real signals to real processes (SIGKILL, SIGSTOP).

import { spawn, execFile } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { get as httpsGet } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEADLINE_MS } from './kube-http.js';
import { freePort } from './process.js';

const ETCD_BINARY = '/usr/bin/etcd';
const ETCDCTL_BINARY = '/usr/bin/etcdctl';
/** OUTPUT_TAIL_CHARS bounds the output kept per member: enough to explain a failed start. */
const OUTPUT_TAIL_CHARS = 16_000;

/** EtcdMember is one etcd process of a test cluster. */
export interface EtcdMember {
  readonly name: string;
  readonly clientUrl: string;
  readonly dataDir: string;
  /** pid is the current process id (a restart changes it). */
  readonly pid: number;
  /** kill sends a signal; for one that ends the process it resolves once the process is gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** restart starts the member again on its ports and data directory and waits until it is healthy. */
  restart(): Promise<void>;
  /** output is the tail of what the process wrote, for failure messages. */
  output(): string;
}

/** EtcdClientTls are the PEM files a client needs for a cluster started with tls: paths. */
export interface EtcdClientTls {
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

/** EtcdCluster is a running test cluster. */
export interface EtcdCluster {
  readonly endpoints: readonly string[];
  /** tls is set when the cluster serves clients over TLS and requires a client certificate. */
  readonly tls?: EtcdClientTls;
  readonly members: readonly EtcdMember[];
  /** leader is the member that is raft leader now, as the members report it. */
  leader(): Promise<EtcdMember>;
  /** stop kills every member and removes the data directories. */
  stop(): Promise<void>;
}

/** StartEtcdOptions sizes the cluster; extraArgs go to every member (e.g. --auto-compaction-retention). */
export interface StartEtcdOptions {
  readonly members: 1 | 3;
  readonly extraArgs?: readonly string[];
  /** tls: clients connect over https with a certificate of a fresh test CA (peers stay on http). */
  readonly tls?: boolean;
}

interface MemberPlan {
  readonly name: string;
  readonly clientUrl: string;
  readonly peerUrl: string;
  readonly dataDir: string;
}

/** PORT_ATTEMPTS: ports are picked free, but another process can bind one before etcd does. */
const PORT_ATTEMPTS = 3;

/** startEtcd starts the members and resolves once every one of them reports healthy. */
export async function startEtcd(options: StartEtcdOptions): Promise<EtcdCluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startEtcdOnce(options);
    } catch (err) {
      // A member that lost its port to another process: the whole cluster again, on new ports.
      if (attempt >= PORT_ATTEMPTS || !String(err).includes('address already in use')) throw err;
    }
  }
}

async function startEtcdOnce(options: StartEtcdOptions): Promise<EtcdCluster> {
  const root = await mkdtemp(join(tmpdir(), 'cachegate-etcd-'));
  const tls = options.tls === true ? await makeCertificates(root) : undefined;
  const plans = await planMembers(root, options.members, tls === undefined ? 'http' : 'https');
  const initialCluster = plans.map((plan) => `${plan.name}=${plan.peerUrl}`).join(',');
  const token = `test-${root.slice(-6)}`;
  const extraArgs = [...(tls === undefined ? [] : tls.serverArgs), ...(options.extraArgs ?? [])];
  const members = plans.map((plan) => new ProcessMember(plan, memberArgs(plan, initialCluster, token, extraArgs), tls?.client));
  // A test process that exits without stop() (a crash, a cancelled run) must not leave etcd running.
  const killOnExit = (): void => members.forEach((member) => member.killNow());
  process.once('exit', killOnExit);
  const cluster: EtcdCluster = {
    endpoints: plans.map((plan) => plan.clientUrl),
    ...(tls === undefined ? {} : { tls: tls.client }),
    members,
    leader: () => findLeader(members, tls?.client),
    stop: async () => {
      process.off('exit', killOnExit);
      await Promise.all(members.map((member) => member.kill('SIGKILL')));
      await rm(root, { recursive: true, force: true });
    },
  };
  try {
    members.forEach((member) => member.start());
    await Promise.all(members.map((member) => member.waitHealthy()));
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}

async function planMembers(root: string, count: number, clientScheme: 'http' | 'https'): Promise<MemberPlan[]> {
  const plans: MemberPlan[] = [];
  for (let i = 0; i < count; i++) {
    const name = `member${i}`;
    plans.push({
      name,
      clientUrl: `${clientScheme}://127.0.0.1:${await freePort()}`,
      peerUrl: `http://127.0.0.1:${await freePort()}`,
      dataDir: join(root, name),
    });
  }
  return plans;
}

function memberArgs(plan: MemberPlan, initialCluster: string, token: string, extraArgs: readonly string[]): string[] {
  return [
    '--name', plan.name,
    '--data-dir', plan.dataDir,
    '--listen-client-urls', plan.clientUrl,
    '--advertise-client-urls', plan.clientUrl,
    '--listen-peer-urls', plan.peerUrl,
    '--initial-advertise-peer-urls', plan.peerUrl,
    '--initial-cluster', initialCluster,
    '--initial-cluster-token', token,
    '--initial-cluster-state', 'new',
    '--logger', 'zap',
    '--log-outputs', 'stderr',
    ...extraArgs,
  ];
}

/**
 * stoppedThreads resolves once every thread of pid is stopped. A SIGSTOP is delivered at once but
 * takes effect per thread as each next runs (on a loaded machine, a while later), and a request
 * sent meanwhile may still be served: a test that stops a member must not race it.
 */
async function stoppedThreads(pid: number): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
    const states = await Promise.all(tasks.map(async (task) => {
      const stat = await readFile(`/proc/${pid}/task/${task}/stat`, 'utf8').catch(() => '');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    }));
    if (states.every((state) => state === 'T' || state === 't' || state === '')) return;
    if (Date.now() > deadline) throw new Error(`etcd (pid ${pid}) did not stop: thread states ${states.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** etcdEnvironment is the host's environment without ETCD_* variables, which etcd reads as flags. */
function etcdEnvironment(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ETCD_')));
  // etcd 3.4 refuses to start on architectures other than amd64 and ppc64le unless told to.
  if (process.arch !== 'x64' && process.arch !== 'ppc64') env.ETCD_UNSUPPORTED_ARCH = process.arch === 'arm64' ? 'arm64' : process.arch;
  return env;
}

class ProcessMember implements EtcdMember {
  readonly name: string;
  readonly clientUrl: string;
  readonly dataDir: string;
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private alive = false;
  private tail = '';

  constructor(plan: MemberPlan, private readonly args: readonly string[], private readonly tls?: EtcdClientTls) {
    this.name = plan.name;
    this.clientUrl = plan.clientUrl;
    this.dataDir = plan.dataDir;
  }

  get pid(): number {
    return this.child?.pid ?? 0;
  }

  start(): void {
    const child = spawn(ETCD_BINARY, this.args, { env: etcdEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer): void => {
      this.tail = (this.tail + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.alive = true;
    this.exited = new Promise((resolve) => {
      child.once('exit', () => {
        this.alive = false;
        resolve();
      });
      // A binary that cannot be started (not installed: scripts/ensure-test-tools.sh installs it)
      // gets 'error' and no 'exit': without this, waitHealthy would poll a member that never ran.
      child.once('error', (err) => {
        this.tail += `\n${err.message}`;
        this.alive = false;
        resolve();
      });
    });
    this.child = child;
  }

  async kill(signal: NodeJS.Signals): Promise<void> {
    if (!this.alive || this.child === undefined) return;
    this.child.kill(signal);
    if (signal === 'SIGSTOP') await stoppedThreads(this.child.pid ?? 0);
    else if (signal !== 'SIGCONT') await this.exited;
  }

  /** killNow sends SIGKILL without waiting (for an exiting process, which cannot wait). */
  killNow(): void {
    if (this.alive) this.child?.kill('SIGKILL');
  }

  async restart(): Promise<void> {
    await this.kill('SIGKILL');
    this.start();
    await this.waitHealthy();
  }

  output(): string {
    return this.tail;
  }

  /** waitHealthy polls the member's /health until it says the member serves (it has a leader). */
  async waitHealthy(): Promise<void> {
    const deadline = Date.now() + 2 * DEADLINE_MS;
    for (;;) {
      if (!this.alive) throw new Error(`etcd ${this.name} exited while starting:\n${this.tail}`);
      if (await this.answersHealthy()) return;
      if (Date.now() > deadline) throw new Error(`etcd ${this.name} did not become healthy:\n${this.tail}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private async answersHealthy(): Promise<boolean> {
    try {
      const body = this.tls === undefined ? await (await fetch(`${this.clientUrl}/health`, { signal: AbortSignal.timeout(2_000) })).text() : await httpsText(`${this.clientUrl}/health`, this.tls);
      return (JSON.parse(body) as { health?: string }).health === 'true';
    } catch {
      return false;
    }
  }
}

/** httpsText GETs url with the test CA and client certificate (fetch cannot take them). */
async function httpsText(url: string, tls: EtcdClientTls): Promise<string> {
  const [ca, cert, key] = await Promise.all([readFile(tls.ca), readFile(tls.cert), readFile(tls.key)]);
  return new Promise((resolve, reject) => {
    const req = httpsGet(url, { ca, cert, key, timeout: 2_000 }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve(body));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

/** makeCertificates makes a test CA, a server certificate for 127.0.0.1 and a client certificate, with openssl. */
async function makeCertificates(root: string): Promise<{ client: EtcdClientTls; serverArgs: string[] }> {
  const file = (name: string): string => join(root, name);
  const openssl = (...args: string[]): Promise<unknown> => promisify(execFile)('openssl', args);
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await openssl('req', '-x509', ...newKey, '-days', '1', '-subj', '/CN=cachegate test CA', '-keyout', file('ca-key.pem'), '-out', file('ca.pem'));
  for (const [name, extensions] of [['server', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth'], ['client', 'extendedKeyUsage=clientAuth']] as const) {
    await writeFile(file(`${name}.ext`), `${extensions}\n`);
    await openssl('req', ...newKey, '-subj', `/CN=${name}`, '-keyout', file(`${name}-key.pem`), '-out', file(`${name}.csr`));
    await openssl('x509', '-req', '-in', file(`${name}.csr`), '-CA', file('ca.pem'), '-CAkey', file('ca-key.pem'), '-CAcreateserial',
      '-days', '1', '-extfile', file(`${name}.ext`), '-out', file(`${name}.pem`));
  }
  return {
    client: { ca: file('ca.pem'), cert: file('client.pem'), key: file('client-key.pem') },
    serverArgs: ['--cert-file', file('server.pem'), '--key-file', file('server-key.pem'), '--trusted-ca-file', file('ca.pem'), '--client-cert-auth'],
  };
}

/** findLeader asks the live members (through etcdctl, a real client) which member leads. */
async function findLeader(members: readonly ProcessMember[], tls: EtcdClientTls | undefined): Promise<EtcdMember> {
  const tlsArgs = tls === undefined ? [] : ['--cacert', tls.ca, '--cert', tls.cert, '--key', tls.key];
  // `-w simple` prints one line per endpoint: endpoint, id, version, db size, is leader, ...
  const { stdout } = await promisify(execFile)(
    ETCDCTL_BINARY,
    [...tlsArgs, '--endpoints', members.map((member) => member.clientUrl).join(','), 'endpoint', 'status', '-w', 'simple'],
    { env: { ...etcdEnvironment(), ETCDCTL_API: '3' } },
  ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  const leaderLine = stdout.split('\n').map((line) => line.split(', ')).find((fields) => fields[4] === 'true');
  const leader = members.find((member) => member.clientUrl === leaderLine?.[0]);
  if (leader === undefined) throw new Error(`no member reports itself leader: ${stdout}`);
  return leader;
}
