// The JSON scalar of schema/cachegate.graphql: Kubernetes objects, label maps and any other JSON
// value pass through unchanged, in both directions.

import type { ValueNode } from 'graphql';
import { assertJsonDepth } from '../apimachinery/json-depth.js';
import { graphqlJs } from './graphql-runtime.js';

const { valueFromASTUntyped } = graphqlJs;

/**
 * JSON_SCALAR serialises and parses the JSON scalar; literals may be any GraphQL value. It is a
 * plain object, not a GraphQLScalarType: mercurius copies its properties onto the SDL's scalar,
 * and a whole GraphQLScalarType would overwrite the SDL's description too.
 */
export const JSON_SCALAR = Object.freeze({
  serialize: (value: unknown): unknown => value,
  parseValue: (value: unknown): unknown => bounded(value),
  parseLiteral: (ast: ValueNode, variables?: Parameters<typeof valueFromASTUntyped>[1]): unknown => bounded(valueFromASTUntyped(ast, variables)),
});

// Objects and patches are written to a source through JSON.stringify, which recurses: bound them.
function bounded(value: unknown): unknown {
  assertJsonDepth(value, 'a JSON argument');
  return value;
}
