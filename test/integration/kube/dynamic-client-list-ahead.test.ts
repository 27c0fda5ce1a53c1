// DynamicClient.listAll over real HTTP against a hand-written server that holds each page's body
// open after its metadata until the next page is asked for: a list completes only if every next
// page is asked for as soon as the start of the page before shows its continue token.
//   case 1: each next page is asked for while the page before is still arriving; the pages add up in order
//   case 2: a server that puts its metadata after the items is still read to the end, page after page
//   case 3: a continue token that expires while read ahead falls back to one unpaged list

import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DynamicClient } from '../../../src/kube/dynamic-client.js';
import { embeddedSource } from '../../../src/kube/source-connection.js';
import { CONFIGMAPS } from './kube-test-kit.js';

const item = (name: string): string => JSON.stringify({ metadata: { name, namespace: 'default' }, data: { name } });

/** PagedServer serves three pages of two configmaps; tokens are t1 and t2. */
interface PagedServer {
  readonly url: string;
  /** asked lists each request's continue token ('' for the first page), in arrival order. */
  readonly asked: string[];
  close(): Promise<void>;
}

type Handler = (token: string, req: IncomingMessage, res: ServerResponse, askedFor: (token: string) => Promise<void>) => void;

async function pagedServer(handle: Handler): Promise<PagedServer> {
  const asked: string[] = [];
  const waiters = new Map<string, () => void>();
  const askedFor = (token: string): Promise<void> => asked.includes(token) ? Promise.resolve() : new Promise((resolve) => waiters.set(token, resolve));
  const server: Server = createServer((req, res) => {
    const token = new URL(req.url ?? '/', 'http://x').searchParams.get('continue') ?? '';
    asked.push(token);
    waiters.get(token)?.();
    handle(token, req, res, askedFor);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

const NEXT: Readonly<Record<string, string>> = { '': 't1', t1: 't2', t2: '' };
const PAGE: Readonly<Record<string, number>> = { '': 0, t1: 1, t2: 2 };

/** metadataFirst answers a page as a kube apiserver does, then holds its items until the next page is asked for. */
const metadataFirst: Handler = (token, _req, res, askedFor) => {
  const next = NEXT[token] ?? '';
  const page = PAGE[token] ?? 0;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write(`{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"7"${next ? `,"continue":"${next}"` : ''}},"items":[${item(`cm-${page}a`)}`);
  void (next ? askedFor(next) : Promise.resolve()).then(() => res.end(`,${item(`cm-${page}b`)}]}`));
};

describe('DynamicClient.listAll reads ahead', () => {
  let server: PagedServer | undefined;
  afterEach(async () => server?.close());

  it('case 1: each next page is asked for while the page before is still arriving; the pages add up in order', async () => {
    server = await pagedServer(metadataFirst);
    const listed = await new DynamicClient(embeddedSource(server.url)).listAll('root', CONFIGMAPS, { pageSize: 2 });
    expect(listed.items.map((obj) => obj.metadata.name)).toEqual(['cm-0a', 'cm-0b', 'cm-1a', 'cm-1b', 'cm-2a', 'cm-2b']);
    expect(listed.items[0]).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
    expect(listed.resourceVersion).toBe('7');
    expect(server.asked).toEqual(['', 't1', 't2']);
  });

  it('case 2: a server that puts its metadata after the items is still read to the end, page after page', async () => {
    server = await pagedServer((token, _req, res) => {
      const next = NEXT[token] ?? '';
      const page = PAGE[token] ?? 0;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"kind":"ConfigMapList","apiVersion":"v1","items":[${item(`cm-${page}a`)}],"metadata":{"resourceVersion":"7"${next ? `,"continue":"${next}"` : ''}}}`);
    });
    const listed = await new DynamicClient(embeddedSource(server.url)).listAll('root', CONFIGMAPS, { pageSize: 1 });
    expect(listed.items.map((obj) => obj.metadata.name)).toEqual(['cm-0a', 'cm-1a', 'cm-2a']);
    expect(server.asked).toEqual(['', 't1', 't2']);
  });

  it('case 3: a continue token that expires while read ahead falls back to one unpaged list', async () => {
    server = await pagedServer((token, req, res, askedFor) => {
      if (token === 't1') {
        res.writeHead(410, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410, message: 'the continue token has expired' }));
        return;
      }
      const unpaged = new URL(req.url ?? '/', 'http://x').searchParams.get('limit') === null;
      if (unpaged) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"9"},"items":[${item('all-a')},${item('all-b')}]}`);
        return;
      }
      metadataFirst(token, req, res, askedFor);
    });
    const listed = await new DynamicClient(embeddedSource(server.url)).listAll('root', CONFIGMAPS, { pageSize: 2 });
    expect(listed.items.map((obj) => obj.metadata.name)).toEqual(['all-a', 'all-b']);
    expect(listed.resourceVersion).toBe('9');
  });
});
