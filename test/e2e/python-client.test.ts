// The official Python client (Debian's python3-kubernetes under /usr/bin/python3), unmodified,
// against the embedded source: its watch sends `watch=True` with a capital T, its pager follows
// `_continue`. The client runs in test/e2e/python/watch_configmaps.py.

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/test-app.js';
import type { TestApp } from '../helpers/test-app.js';
import { DEADLINE_MS, request } from '../helpers/kube-http.js';

const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('./python/watch_configmaps.py', import.meta.url));
const SCRIPT_DEADLINE_MS = 3 * DEADLINE_MS;

/** Run is a finished script run. */
interface Run {
  readonly code: number | null;
  readonly lines: Array<Record<string, unknown>>;
  readonly stderr: string;
}

/**
 * runScript runs the script, handing each JSON line of its stdout to onLine as it arrives, and
 * resolves when it exits. It is killed after SCRIPT_DEADLINE_MS so a hung client fails the test
 * instead of timing it out (its watch asks the server to end after 60 s).
 */
function runScript(args: readonly string[], onLine: (line: Record<string, unknown>) => void | Promise<void> = () => undefined): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'pipe'], timeout: SCRIPT_DEADLINE_MS });
    const lines: Array<Record<string, unknown>> = [];
    let stderr = '';
    const handlers: Array<Promise<void>> = [];
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    createInterface({ input: child.stdout }).on('line', (text) => {
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        stderr += `unparsable stdout line: ${text}\n`;
        return;
      }
      lines.push(line);
      handlers.push(Promise.resolve(onLine(line)));
    });
    child.on('error', reject);
    child.on('close', (code) => {
      Promise.all(handlers).then(() => resolve({ code, lines, stderr }), reject);
    });
  });
}

function configMap(name: string): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { from: 'fetch' } };
}

describe('Python kubernetes client against the embedded source', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => app?.stop());

  async function createNamespace(name: string): Promise<void> {
    const res = await request('POST', `${app.clusterUrl('root')}/api/v1/namespaces`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }

  it('case 1: watch=True streams ADDED for its own and concurrently created configmaps, then MODIFIED and DELETED', async () => {
    const ns = 'py-watch';
    await createNamespace(ns);
    const base = `${app.clusterUrl('root')}/api/v1/namespaces/${ns}/configmaps`;
    const fromFetch = ['ts-1', 'ts-2', 'ts-3'];
    let createdOthers = false;

    const run = await runScript(
      [app.clusterUrl('root'), ns, '--own', 'py-own', '--expect', ...fromFetch, '--modify', 'py-own', '--delete', 'ts-2'],
      async (line) => {
        // The script's watch is running once its own configmap shows up: create the others then.
        if (createdOthers || line['type'] !== 'ADDED' || line['name'] !== 'py-own') return;
        createdOthers = true;
        for (const name of fromFetch) {
          const res = await request('POST', base, configMap(name));
          expect(res.status, JSON.stringify(res.body)).toBe(201);
        }
      },
    );

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.lines).toEqual([
      { type: 'ADDED', name: 'py-own' },
      { type: 'ADDED', name: 'ts-1' },
      { type: 'ADDED', name: 'ts-2' },
      { type: 'ADDED', name: 'ts-3' },
      { type: 'MODIFIED', name: 'py-own' },
      { type: 'DELETED', name: 'ts-2' },
    ]);

    // What the script did is visible to everyone.
    const own = await request('GET', `${base}/py-own`);
    expect(own.body.data).toEqual({ step: 'patched' });
    expect((await request('GET', `${base}/ts-2`)).status).toBe(404);
    const list = await request('GET', base);
    expect(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort()).toEqual(['py-own', 'ts-1', 'ts-3']);
  });

  it.each([
    ['case 2: 7 configmaps, 2 a page', 7, 2],
    ['case 3: 6 configmaps, 2 a page (the last page is full)', 6, 2],
    ['case 4: 1 configmap, 2 a page', 1, 2],
  ])('%s: limit and _continue visit every name once', async (_case, count, pageSize) => {
    const ns = `py-list-${count}`;
    await createNamespace(ns);
    const names = Array.from({ length: count }, (_, i) => `cm-${String(i).padStart(2, '0')}`);
    for (const name of names) {
      const res = await request('POST', `${app.clusterUrl('root')}/api/v1/namespaces/${ns}/configmaps`, configMap(name));
      expect(res.status).toBe(201);
    }

    const run = await runScript([app.clusterUrl('root'), ns, '--page-size', String(pageSize)]);

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const pages = run.lines as Array<{ page: number; names: string[]; continue: boolean; remaining: number | null }>;
    expect(pages).toHaveLength(Math.ceil(count / pageSize));
    for (const [i, page] of pages.entries()) {
      const last = i === pages.length - 1;
      expect(page.names.length).toBe(last ? count - pageSize * i : pageSize);
      expect(page.continue).toBe(!last);
      if (!last) expect(page.remaining).toBe(count - pageSize * (i + 1));
    }
    const seen = pages.flatMap((p) => p.names);
    expect([...seen].sort()).toEqual(names);
    expect(new Set(seen).size).toBe(seen.length);
  });
});
