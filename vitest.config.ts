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
    include: ['test/**/*.test.ts'],
    exclude: ['dist/**', 'node_modules/**'],
    // Tests wait for events and conditions with generous deadlines (test/helpers/kube-http.ts:
    // 30 s), never for fixed times; a test or hook must outlast the deadlines it waits through,
    // also on a loaded two-core machine. A deadline costs time only when something is broken.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Chooses, prints and provides the fuzz and property seeds of the run (FUZZ_SEED, FC_SEED).
    globalSetup: ['test/helpers/run-seeds.ts'],
    pool: 'forks',
  },
});
