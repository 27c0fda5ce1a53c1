// The JSON scalar of schema/cachegate.graphql: Kubernetes objects, label maps and any other JSON
// value pass through unchanged, in both directions.

import { Kind, valueFromASTUntyped } from 'graphql';
import type { ValueNode } from 'graphql';

/**
 * JsonScalarResolver is what mercurius copies onto the SDL's scalar type (no description: the
 * SDL's is the one served).
 */
export interface JsonScalarResolver {
  serialize(value: unknown): unknown;
  parseValue(value: unknown): unknown;
  parseLiteral(ast: ValueNode, variables?: Readonly<Record<string, unknown>> | null): unknown;
}

/** JSON_SCALAR serialises and parses the JSON scalar; literals may be any GraphQL value. */
export const JSON_SCALAR: JsonScalarResolver = Object.freeze({
  serialize: (value: unknown) => value,
  parseValue: (value: unknown) => value,
  parseLiteral: (ast: ValueNode, variables?: Readonly<Record<string, unknown>> | null) =>
    ast.kind === Kind.NULL ? null : valueFromASTUntyped(ast, variables ?? undefined),
});
