// Lint rules, including the dependency direction of src/: each room (folder) may import only
// what the table in eslint/import-boundaries.js lists for it, so REST and GraphQL cannot reach
// around the read model and only src/kube talks to @kubernetes/client-node.
import { builtinModules } from 'node:module';
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
  {
    // The dashboard runs in the browser (typechecked by src/ui/tsconfig.json, with the DOM and
    // without Node's types): a Node builtin there could only fail at run time.
    files: ['src/ui/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: builtinModules.flatMap((name) => [name, `node:${name}`]), message: 'src/ui/ is browser code: it has no Node.js builtins.' }],
      }],
    },
  },
);
