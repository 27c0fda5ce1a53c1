import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // One graphql-js for everyone: mercurius require()s the CommonJS build, and vite would
    // otherwise resolve our imports to the ESM build, a second copy that rejects mercurius's types.
    alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve('graphql') }],
  },
  test: {
    // Compiled output must never be collected a second time.
    exclude: ['dist/**', 'node_modules/**'],
    // Tests wait for events and conditions with generous deadlines (test/helpers/kube-http.ts:
    // 30 s), never for fixed times; a test or hook must outlast the deadlines it waits through,
    // also on a loaded two-core machine. A deadline costs time only when something is broken.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Chooses, prints and provides the fuzz and property seeds of the run (FUZZ_SEED, FC_SEED).
    globalSetup: ['test/helpers/run-seeds.ts'],
    pool: 'forks',
    // Two files at a time on two cores (vitest's default leaves one core idle): most files spend
    // their time waiting on processes they started (etcd members, cachegates, browsers), and
    // every test waits for conditions, never for time, so they hold while sharing the machine.
    maxWorkers: 2,
    projects: [
      // Each project names its own files: `extends` would add the root's include to a project's.
      { extends: true, test: { name: 'all', include: ['test/**/*.test.ts'] } },
      // The store's own tests once more, each store a watch cache over a fresh local database:
      // the same expectations hold whatever keeps the state (test/unit/store/fixtures.ts).
      { extends: true, test: { name: 'store-on-local', include: ['test/unit/store/memory-store-*.test.ts'], env: { STORE_BACKEND: 'local' } } },
    ],
  },
});
