// Lint rules, including the dependency direction of src/: each room (folder) may import only
// what the table in eslint/import-boundaries.js lists for it, so REST and GraphQL cannot reach
// around the read model and only src/kube talks to @kubernetes/client-node.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importBoundariesRule } from './eslint/import-boundaries-rule.js';

const cachegate = { rules: { 'import-boundaries': importBoundariesRule } };

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['src/**/*.{ts,mts,cts,tsx,js,mjs,cjs}'],
    plugins: { cachegate },
    rules: { 'cachegate/import-boundaries': 'error' },
  },
);
