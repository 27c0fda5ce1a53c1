// The Node.js flags the image starts cachegate with (the Dockerfile's ENTRYPOINT, between `node`
// and the script), so the bench's measured process runs as a deployed one does.

import { readFileSync } from 'node:fs';

const DOCKERFILE = new URL('../../Dockerfile', import.meta.url);

/** imageNodeFlags are the options the Dockerfile's ENTRYPOINT gives node before dist/main.js. */
export function imageNodeFlags(dockerfile = readFileSync(DOCKERFILE, 'utf8')): string[] {
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
