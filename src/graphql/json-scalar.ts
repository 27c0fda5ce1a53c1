// The JSON scalar of schema/cachegate.graphql: Kubernetes objects, label maps and any other JSON
// value pass through unchanged, in both directions.

import type { ValueNode } from 'graphql';
import { graphqlJs } from './graphql-runtime.js';

const { valueFromASTUntyped } = graphqlJs;

/**
 * JSON_SCALAR serialises and parses the JSON scalar; literals may be any GraphQL value. It is a
 * plain object, not a GraphQLScalarType: mercurius copies its properties onto the SDL's scalar,
 * and a whole GraphQLScalarType would overwrite the SDL's description too.
 */
export const JSON_SCALAR = Object.freeze({
  serialize: (value: unknown): unknown => value,
  parseValue: (value: unknown): unknown => value,
  parseLiteral: (ast: ValueNode, variables?: Parameters<typeof valueFromASTUntyped>[1]): unknown => valueFromASTUntyped(ast, variables),
});
