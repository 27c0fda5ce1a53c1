// Runs the real kubectl of this machine against a test app. A missing kubectl fails the test
// loudly: these tests are never skipped.

import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEADLINE_MS } from './kube-http.js';

/** KubectlResult is what one kubectl run printed. */
export interface KubectlResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Kubectl runs kubectl against one server URL with an isolated HOME and no kubeconfig. */
export interface Kubectl {
  run(args: readonly string[], stdin?: string): Promise<KubectlResult>;
  /** ok runs kubectl and throws with its stderr when it fails. */
  ok(args: readonly string[], stdin?: string): Promise<string>;
  spawn(args: readonly string[]): ChildProcess;
}

/** kubectlFor binds kubectl to a server URL (e.g. http://127.0.0.1:PORT/clusters/root). */
export function kubectlFor(server: string): Kubectl {
  const env = { ...process.env, HOME: mkdtempSync(join(tmpdir(), 'kubectl-home-')), KUBECONFIG: '/dev/null' };
  const fullArgs = (args: readonly string[]): string[] => ['--server', server, ...args];
  const run = (args: readonly string[], stdin?: string): Promise<KubectlResult> => new Promise((resolve, reject) => {
    const child = execFile('kubectl', fullArgs(args), { env, timeout: 2 * DEADLINE_MS }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') {
        reject(new Error('kubectl is not installed on this machine; the kubectl tests need it'));
        return;
      }
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
  return {
    run,
    async ok(args, stdin) {
      const result = await run(args, stdin);
      if (result.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
      return result.stdout;
    },
    spawn: (args) => spawn('kubectl', fullArgs(args), { env }),
  };
}
