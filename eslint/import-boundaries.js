// The one table of which part of src/ may import which. The lint rule in
// import-boundaries-rule.js enforces it and docs/import-rules.md is generated from it, so a change
// here is a change of architecture: make it on purpose, and say why next to the entry.
//
// A room is a folder (or a top-level file) of src/. A file may import:
//   - its own room;
//   - the rooms in `may`;
//   - the rooms in `types`, but only with `import type` / `export type` (no runtime dependency);
//   - npm packages and node builtins, except those `packages` reserves for other rooms.
// Anything else in src/ (or outside it) is refused: the table is a whitelist. `note` is shown in
// the docs; where a room differs from the first design, it says why.

/** ANY_ROOM as `may` lets a room import every room of src/. */
export const ANY_ROOM = '*';

const facadeImports = ['read', 'write', 'auth', 'apimachinery', 'metrics', 'errors'];
const controllerImports = ['controllers/runtime', 'cachedobjects', 'apimachinery', 'metrics', 'errors'];

/** importBoundaries lists every room of src/ (present or planned) and what it may import. */
export const importBoundaries = deepFreeze({
  rooms: [
    {
      name: 'main',
      paths: ['main.ts'],
      may: ['app', 'config', 'storage'],
      types: [],
      note: 'storage only for StorageOpenError, which ends start-up with exit code 2 as a config error does',
    },
    {
      name: 'app',
      paths: ['app.ts', 'app/'],
      may: ANY_ROOM,
      types: [],
      note: 'the composition root: the only code that wires modules together',
    },
    {
      name: 'http',
      paths: ['http/'],
      may: facadeImports,
      types: [],
      note: 'data only through read/ and write/, so REST and GraphQL cannot drift',
    },
    {
      name: 'graphql',
      paths: ['graphql/'],
      may: [...facadeImports, 'cachedobjects'],
      types: [],
      note: 'as http/, plus cachedobjects/ for the CachedObject fields of the schema',
    },
    {
      name: 'auth',
      paths: ['auth/'],
      may: ['read', 'write', 'cachedobjects', 'apimachinery', 'errors'],
      types: ['store', 'config'],
    },
    { name: 'read', paths: ['read/'], may: ['overlay', 'store', 'cachedobjects', 'apimachinery', 'errors'], types: [] },
    { name: 'write', paths: ['write/'], may: ['overlay', 'apimachinery', 'errors'], types: [] },
    { name: 'controllers/runtime', paths: ['controllers/runtime/'], may: controllerImports, types: ['store'] },
    {
      name: 'controllers/clustercachedresources',
      paths: ['controllers/clustercachedresources/'],
      may: controllerImports,
      // The one controller that may name another: it is the replication controllers' parent.
      types: ['store', 'controllers/replication'],
      note:
        'the root controller starts and stops replication controllers, so it names their contract ' +
        '(ReplicationSpec, ReplicationCounts, SourceView) as types; the child itself comes in as a closure',
    },
    { name: 'controllers/replication', paths: ['controllers/replication/'], may: controllerImports, types: ['store'] },
    { name: 'apiserver', paths: ['apiserver/'], may: ['store', 'cachedobjects', 'apimachinery', 'errors'], types: [] },
    {
      name: 'kube',
      paths: ['kube/'],
      may: ['apimachinery', 'errors'],
      types: ['config'],
      note: 'the only importer of @kubernetes/client-node',
    },
    {
      name: 'ha',
      paths: ['ha/'],
      may: ['storage', 'apimachinery', 'errors'],
      types: [],
      note: 'leader election and fencing on etcd (the backend itself comes in as a type)',
    },
    { name: 'store', paths: ['store/'], may: ['storage', 'apimachinery', 'errors'], types: [] },
    {
      name: 'storage',
      paths: ['storage/'],
      may: ['apimachinery', 'errors'],
      types: [],
      note: 'durable backends under the stores: the local database and etcd',
    },
    { name: 'overlay', paths: ['overlay/'], may: ['apimachinery', 'errors'], types: [] },
    { name: 'config', paths: ['config/'], may: ['apimachinery', 'errors'], types: [] },
    { name: 'cachedobjects', paths: ['cachedobjects/'], may: ['apimachinery', 'errors'], types: ['store'] },
    { name: 'metrics', paths: ['metrics/'], may: [], types: [], note: 'wraps prom-client' },
    { name: 'apimachinery', paths: ['apimachinery/'], may: ['errors'], types: [] },
    { name: 'errors', paths: ['errors.ts'], may: [], types: [] },
    {
      name: 'ui',
      paths: ['ui/'],
      may: [],
      types: [],
      note: 'the dashboard (/ui): browser code, bundled by scripts/build-ui.ts, with no Node builtins (eslint.config.js); it reaches the server only through its public HTTP APIs',
    },
  ],
  /** packages reserves npm packages for the rooms listed; every other package is open to all. */
  packages: { '@kubernetes/client-node': ['kube'], 'prom-client': ['metrics'] },
});

function deepFreeze(value) {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}
