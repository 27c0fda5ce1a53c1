// Opening the etcd3 client the way the backend needs it. The client's own retry of failed calls
// is switched off: it would send a transaction again after a connection dropped mid-call, and a
// create that had in fact been applied would then come back as "already exists" instead of as the
// ambiguous failure it is. EtcdCaller retries instead, and knows which calls may be sent twice.

import { readFile } from 'node:fs/promises';
import { ConsecutiveBreaker, circuitBreaker, handleWhen, noop } from 'cockatiel';
import { Etcd3, isRecoverableError } from 'etcd3';
import type { IOptions } from 'etcd3';
import { StorageOpenError } from '../storage-open-error.js';

/** EtcdTlsFiles are the PEM files of a TLS connection, as paths. */
export interface EtcdTlsFiles {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
}

/** EtcdClientOptions is what the client is built from. */
export interface EtcdClientOptions {
  readonly endpoints: readonly string[];
  readonly tls?: EtcdTlsFiles;
}

/**
 * HOST_BREAKER_* make the client route around a member that keeps failing: after three failures
 * in a row it is skipped, and tried again once after two seconds (a member that is down but not
 * refusing connections would otherwise cost every call sent to it its whole deadline).
 */
const HOST_BREAKER_FAILURES = 3;
const HOST_BREAKER_HALF_OPEN_MS = 2_000;

/**
 * CHANNEL_OPTIONS: a large page of a list or a watch catching up can exceed gRPC's 4 MiB default;
 * keepalive pings find a connection whose member stopped answering (etcd allows one ping per 5 s);
 * a member that is back is dialled again within a second or two instead of gRPC's two minutes;
 * a channel pool per client keeps two backends in one process from sharing connections.
 */
const CHANNEL_OPTIONS = {
  'grpc.max_receive_message_length': 256 * 1024 * 1024,
  'grpc.keepalive_time_ms': 10_000,
  'grpc.keepalive_timeout_ms': 5_000,
  'grpc.initial_reconnect_backoff_ms': 200,
  'grpc.max_reconnect_backoff_ms': 2_000,
  'grpc.use_local_subchannel_pool': 1,
};

/** openEtcdClient reads the TLS files (StorageOpenError naming an unreadable one) and builds the client. */
export async function openEtcdClient(options: EtcdClientOptions): Promise<Etcd3> {
  if (options.endpoints.length === 0) throw new StorageOpenError('etcd: no endpoints are configured');
  const credentials = await readCredentials(options.tls);
  const clientOptions: IOptions = {
    hosts: [...options.endpoints],
    grpcOptions: CHANNEL_OPTIONS,
    faultHandling: {
      global: noop,
      host: () => circuitBreaker(handleWhen(isRecoverableError), {
        halfOpenAfter: HOST_BREAKER_HALF_OPEN_MS,
        breaker: new ConsecutiveBreaker(HOST_BREAKER_FAILURES),
      }),
    },
  };
  if (credentials !== undefined) clientOptions.credentials = credentials;
  try {
    return new Etcd3(clientOptions);
  } catch (err) {
    // e.g. a mix of http:// and https:// endpoints, or a TLS file that is not PEM
    const files = Object.values(options.tls ?? {}).join(', ');
    const what = files === '' ? `endpoints ${options.endpoints.join(', ')}` : `endpoints ${options.endpoints.join(', ')} with TLS files ${files}`;
    throw new StorageOpenError(`etcd: cannot use ${what}: ${(err as Error).message}`);
  }
}

type Credentials = NonNullable<IOptions['credentials']>;

async function readCredentials(tls: EtcdTlsFiles | undefined): Promise<Credentials | undefined> {
  if (tls === undefined || (tls.ca === undefined && tls.cert === undefined && tls.key === undefined)) return undefined;
  if ((tls.cert === undefined) !== (tls.key === undefined)) {
    throw new StorageOpenError('etcd: a TLS client certificate needs both cert and key files');
  }
  const [ca, cert, key] = await Promise.all([
    readTlsFile('CA', tls.ca),
    readTlsFile('certificate', tls.cert),
    readTlsFile('key', tls.key),
  ]);
  // etcd3 types the CA as required, but grpc-js takes the system's roots when it is absent.
  const credentials: Credentials = { rootCertificate: ca as Buffer };
  if (cert !== undefined) credentials.certChain = cert;
  if (key !== undefined) credentials.privateKey = key;
  return credentials;
}

async function readTlsFile(what: string, path: string | undefined): Promise<Buffer | undefined> {
  if (path === undefined) return undefined;
  try {
    return await readFile(path);
  } catch (err) {
    throw new StorageOpenError(`etcd: cannot read the TLS ${what} file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}
