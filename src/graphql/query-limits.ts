// The limits of one GraphQL document, on every transport (HTTP GET, HTTP POST, WebSocket). Size
// in bytes and in tokens is checked on the text before it is parsed (document-source.ts), repeated
// fields on the parsed document before it is validated (repeated-fields.ts); depth, cost and
// aliases are validation rules here: a document over a limit is rejected before anything runs,
// with HTTP 400 and extensions.code QUERY_TOO_DEEP, QUERY_TOO_COSTLY or QUERY_TOO_MANY_ALIASES. Introspection (__schema, __type) is free and does
// not count towards depth: its shape is fixed by the schema, and GraphiQL's own introspection
// query is 15 levels deep.
//
// Cost model: every selected field costs 1 times the number of times it can run, which is the
// product of the sizes of the lists above it. A field with a `first` argument (a connection)
// multiplies what is below it by `first` (its default when absent, its maximum when given as a
// variable); the list fields of a connection type (edges) are already counted by that. Any other
// list field multiplies by `listEstimate`.

import type {
  ASTVisitor, FieldNode, FragmentDefinitionNode, GraphQLCompositeType, GraphQLField, OperationDefinitionNode,
  SelectionSetNode, ValidationContext, ValidationRule,
} from 'graphql';
import { graphqlJs } from './graphql-runtime.js';

const { GraphQLError, Kind, getNamedType, getNullableType, isCompositeType, isListType } = graphqlJs;

/** QueryLimits bounds what one document may ask for. */
export interface QueryLimits {
  /** maxDepth is the deepest field nesting allowed (introspection excluded). */
  readonly maxDepth: number;
  /** maxCost is the highest estimated number of field resolutions allowed. */
  readonly maxCost: number;
  /** defaultFirst is the page size of a connection without `first`. */
  readonly defaultFirst: number;
  /** maxFirst is the largest `first` accepted. */
  readonly maxFirst: number;
  /** listEstimate is the assumed length of a list without `first`. */
  readonly listEstimate: number;
  /** maxAliases is the most aliased fields one document may hold (aliases multiply work cheaply). */
  readonly maxAliases: number;
  /** maxDocumentBytes is the largest document accepted, in UTF-8 bytes (PAYLOAD_TOO_LARGE past it). */
  readonly maxDocumentBytes: number;
  /**
   * maxTokens bounds a document's size in GraphQL tokens (GRAPHQL_PARSE_FAILED past it). mercurius
   * keeps parsed documents, rejected ones too, in LRU caches keyed by the query text, and a parsed
   * document costs about 0.5 KB per token: without a bound, distinct huge queries (the HTTP fuzz
   * test sent 3000-alias ones) held hundreds of MB. Introspection is under 200 tokens.
   */
  readonly maxTokens: number;
  /** maxFieldRepeats is how often one response name may be selected in one selection set (repeated-fields.ts). */
  readonly maxFieldRepeats: number;
}

/** DEFAULT_QUERY_LIMITS are the limits of the /graphql endpoint unless the plugin is told otherwise. */
export const DEFAULT_QUERY_LIMITS: QueryLimits = Object.freeze({
  maxDepth: 8,
  maxCost: 100_000,
  defaultFirst: 100,
  maxFirst: 500,
  listEstimate: 10,
  maxAliases: 100,
  maxDocumentBytes: 64 * 1024,
  maxTokens: 2000,
  maxFieldRepeats: 10,
});

/** queryLimitRules makes the depth and cost validation rules for the given limits. */
export function queryLimitRules(limits: QueryLimits): ValidationRule[] {
  return [depthRule(limits), costRule(limits), aliasRule(limits)];
}

/** aliasRule refuses a document with more than maxAliases aliased fields (QUERY_TOO_MANY_ALIASES). */
function aliasRule(limits: QueryLimits): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    let aliases = 0;
    return {
      Field(field: FieldNode) {
        if (field.alias) aliases++;
      },
      Document: {
        leave(document) {
          if (aliases <= limits.maxAliases) return;
          context.reportError(new GraphQLError(
            `this document has ${aliases} aliased fields; the limit is ${limits.maxAliases}`,
            { nodes: [document], extensions: { code: 'QUERY_TOO_MANY_ALIASES', aliases, limit: limits.maxAliases } },
          ));
        },
      },
    };
  };
}

type Fragments = (name: string) => FragmentDefinitionNode | null | undefined;

function depthRule(limits: QueryLimits): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation: OperationDefinitionNode) {
      const depth = depthOf(operation.selectionSet, (name) => context.getFragment(name), new Set());
      if (depth > limits.maxDepth) {
        context.reportError(new GraphQLError(
          `${operationName(operation)} is ${depth} levels deep; the limit is ${limits.maxDepth}`,
          { nodes: [operation], extensions: { code: 'QUERY_TOO_DEEP', depth, limit: limits.maxDepth } },
        ));
      }
    },
  });
}

/** depthOf is the deepest field nesting below a selection set; fragments add no level of their own. */
function depthOf(set: SelectionSetNode | undefined, fragments: Fragments, visiting: Set<string>): number {
  let deepest = 0;
  for (const selection of set?.selections ?? []) {
    let depth = 0;
    if (selection.kind === Kind.FIELD) {
      if (isIntrospection(selection)) continue;
      depth = 1 + depthOf(selection.selectionSet, fragments, visiting);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      depth = depthOf(selection.selectionSet, fragments, visiting);
    } else {
      const name = selection.name.value;
      const fragment = fragments(name);
      if (!fragment || visiting.has(name)) continue; // unknown and cyclic fragments are reported by the standard rules
      visiting.add(name);
      depth = depthOf(fragment.selectionSet, fragments, visiting);
      visiting.delete(name);
    }
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

function costRule(limits: QueryLimits): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation: OperationDefinitionNode) {
      const root = rootType(context, operation);
      if (!root) return;
      const walk: CostWalk = { context, limits, visiting: new Set() };
      const cost = costOf(walk, operation.selectionSet, root, 1);
      if (cost > limits.maxCost) {
        context.reportError(new GraphQLError(
          `${operationName(operation)} may resolve about ${cost} fields; the limit is ${limits.maxCost}`,
          { nodes: [operation], extensions: { code: 'QUERY_TOO_COSTLY', cost, limit: limits.maxCost } },
        ));
      }
    },
  });
}

interface CostWalk {
  readonly context: ValidationContext;
  readonly limits: QueryLimits;
  readonly visiting: Set<string>;
}

/** costOf estimates how many field resolutions a selection set makes when it runs `times` times. */
function costOf(walk: CostWalk, set: SelectionSetNode | undefined, parent: GraphQLCompositeType, times: number): number {
  let cost = 0;
  for (const selection of set?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      if (isIntrospection(selection) || !('getFields' in parent)) continue;
      const field = parent.getFields()[selection.name.value];
      if (!field) continue; // unknown fields are reported by the standard rules
      const type = getNamedType(field.type);
      cost += times;
      if (isCompositeType(type)) cost += costOf(walk, selection.selectionSet, type, times * sizeOf(walk.limits, parent, field, selection));
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = selection.typeCondition ? walk.context.getSchema().getType(selection.typeCondition.name.value) : parent;
      if (type && isCompositeType(type)) cost += costOf(walk, selection.selectionSet, type, times);
    } else {
      const name = selection.name.value;
      const fragment = walk.context.getFragment(name);
      const type = fragment && walk.context.getSchema().getType(fragment.typeCondition.name.value);
      if (!fragment || !type || !isCompositeType(type) || walk.visiting.has(name)) continue;
      walk.visiting.add(name);
      cost += costOf(walk, fragment.selectionSet, type, times);
      walk.visiting.delete(name);
    }
  }
  return cost;
}

/** sizeOf is how many values a field yields for each time it runs. */
function sizeOf(limits: QueryLimits, parent: GraphQLCompositeType, field: GraphQLField<unknown, unknown>, node: FieldNode): number {
  const first = node.arguments?.find((arg) => arg.name.value === 'first');
  if (field.args.some((arg) => arg.name === 'first')) {
    if (!first) return limits.defaultFirst;
    if (first.value.kind === Kind.INT) return Math.max(1, Number.parseInt(first.value.value, 10));
    return limits.maxFirst;
  }
  if (isListType(getNullableType(field.type)) && !parent.name.endsWith('Connection')) return limits.listEstimate;
  return 1;
}

function rootType(context: ValidationContext, operation: OperationDefinitionNode): GraphQLCompositeType | null | undefined {
  const schema = context.getSchema();
  if (operation.operation === 'query') return schema.getQueryType();
  if (operation.operation === 'mutation') return schema.getMutationType();
  return schema.getSubscriptionType();
}

function isIntrospection(field: FieldNode): boolean {
  return field.name.value.startsWith('__');
}

function operationName(operation: OperationDefinitionNode): string {
  return operation.name ? `operation ${operation.name.value}` : `this ${operation.operation}`;
}
