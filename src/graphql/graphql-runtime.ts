// The graphql-js this folder uses, imported in one place. mercurius loads graphql's CommonJS
// build, and so does Node for this import (the package has no "exports" map, so "main" wins).
// vitest would pick the ESM build (the "module" field) — a second copy whose instanceof checks
// reject mercurius's schema — so vitest.config.ts aliases 'graphql' to the CommonJS build.

import * as GraphqlJs from 'graphql';

/** graphqlJs is graphql-js as mercurius loads it. */
export const graphqlJs: typeof GraphqlJs = GraphqlJs;
