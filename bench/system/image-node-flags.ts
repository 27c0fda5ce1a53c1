// The Node flags the container image starts cachegate with, read from the Dockerfile's ENTRYPOINT
// (the exec form, `["node", ...flags, "dist/main.js"]`), so the bench measures the process the
// image runs and a change of flags cannot leave the bench behind.

import { readFileSync } from 'node:fs';

const DOCKERFILE = new URL('../../Dockerfile', import.meta.url);

/** imageNodeFlags returns the flags between `node` and the script in the Dockerfile's ENTRYPOINT. */
export function imageNodeFlags(dockerfile: string = readFileSync(DOCKERFILE, 'utf8')): string[] {
  const line = dockerfile.split('\n').find((l) => l.startsWith('ENTRYPOINT '));
  if (line === undefined) throw new Error('the Dockerfile has no ENTRYPOINT');
  let entry: unknown;
  try {
    entry = JSON.parse(line.slice('ENTRYPOINT '.length));
  } catch {
    entry = undefined;
  }
  if (!Array.isArray(entry) || entry[0] !== 'node' || !entry.every((part) => typeof part === 'string')) {
    throw new Error(`the Dockerfile's ENTRYPOINT is not the exec form ["node", ...]: ${line}`);
  }
  return (entry as string[]).slice(1, -1);
}
