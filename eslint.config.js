// Lint rules, including the dependency direction of DESIGN.md §4: each folder may import only
// the folders listed for it, so REST and GraphQL cannot reach around the read model and only
// src/kube talks to @kubernetes/client-node.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Builds a no-restricted-imports rule that forbids the given project folders. */
function forbid(folders, extra = []) {
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...folders.map((folder) => ({
            group: [`**/${folder}/*`, `**/${folder}`],
            message: `this folder may not import from src/${folder} (see DESIGN.md §4)`,
          })),
          ...extra,
        ],
      },
    ],
  };
}

const clientNode = { group: ['@kubernetes/client-node'], message: 'only src/kube imports client-node' };
const everythingButPure = ['store', 'apiserver', 'kube', 'controllers', 'overlay', 'read', 'http', 'graphql', 'config', 'metrics', 'app', 'main'];

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
  { files: ['src/apimachinery/**'], rules: forbid(everythingButPure, [clientNode]) },
  { files: ['src/store/**'], rules: forbid(everythingButPure.filter((f) => f !== 'store'), [clientNode]) },
  { files: ['src/apiserver/**'], rules: forbid(['kube', 'controllers', 'overlay', 'read', 'http', 'graphql', 'app', 'main'], [clientNode]) },
  { files: ['src/config/**', 'src/metrics/**'], rules: forbid(['store', 'apiserver', 'kube', 'controllers', 'overlay', 'read', 'http', 'graphql', 'app', 'main'], [clientNode]) },
  { files: ['src/http/**'], rules: forbid(['store', 'apiserver', 'kube', 'controllers', 'overlay', 'app', 'main'], [clientNode]) },
);
