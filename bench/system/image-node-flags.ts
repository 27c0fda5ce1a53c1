// The Node.js flags and runtime environment the image starts cachegate with (the Dockerfile's
// ENTRYPOINT, between `node` and the script, and its GLIBC_TUNABLES), so the bench's measured
// process runs as a deployed one does.

import { readFileSync } from 'node:fs';

const DOCKERFILE = new URL('../../Dockerfile', import.meta.url);

function dockerfileText(): string {
  return readFileSync(DOCKERFILE, 'utf8');
}

/** imageNodeFlags are the options the Dockerfile's ENTRYPOINT gives node before dist/main.js. */
export function imageNodeFlags(dockerfile = dockerfileText()): string[] {
  const entrypoint = /^ENTRYPOINT\s+(\[.*\])\s*$/m.exec(dockerfile)?.[1];
  if (entrypoint === undefined) throw new Error('the Dockerfile has no ENTRYPOINT in JSON form');
  const argv = JSON.parse(entrypoint) as unknown;
  if (!Array.isArray(argv) || argv[0] !== 'node' || argv.some((arg) => typeof arg !== 'string')) {
    throw new Error(`the Dockerfile's ENTRYPOINT does not start node: ${entrypoint}`);
  }
  const script = argv.indexOf('dist/main.js');
  if (script < 0) throw new Error(`the Dockerfile's ENTRYPOINT does not run dist/main.js: ${entrypoint}`);
  return argv.slice(1, script) as string[];
}

/**
 * imageRuntimeEnv is the environment the image sets for the C library under node (GLIBC_TUNABLES,
 * from an `ENV GLIBC_TUNABLES=...` line of its own); the service's own settings (PORT, ...) are left out.
 */
export function imageRuntimeEnv(dockerfile = dockerfileText()): Record<string, string> {
  const tunables = /^ENV\s+GLIBC_TUNABLES=(\S+)\s*$/m.exec(dockerfile)?.[1];
  return tunables === undefined ? {} : { GLIBC_TUNABLES: tunables };
}
