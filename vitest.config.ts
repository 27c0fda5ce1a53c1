import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Compiled output must never be collected a second time.
    include: ['test/**/*.test.ts'],
    exclude: ['dist/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
