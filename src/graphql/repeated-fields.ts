// A bound on how many times one response name is selected in one selection set, checked on the
// parsed document before graphql-js validates it (validation runs every rule in one pass, so a
// rule could not spare the others' work). graphql-js' OverlappingFieldsCanBeMergedRule compares
// every pair of fields sharing a response name in a selection set, its inline fragments and
// fragment spreads merged in: 400 copies of `schemas { name }`, well under the token limit, took
// 200–400 ms to validate, and a WebSocket client may send a burst of them. With at most
// maxFieldRepeats copies the comparisons grow linearly with the document. No client needs many:
// the copies of a field are merged into one anyway.

import type { DocumentNode, FragmentDefinitionNode, SelectionSetNode } from 'graphql';
import { graphqlJs } from './graphql-runtime.js';

const { BREAK, GraphQLError, Kind, visit } = graphqlJs;

/** Counts are how many times each response name is selected (capped just past the limit). */
type Counts = Map<string, number>;

/** repeatedFieldsError is a QUERY_TOO_MANY_REPEATED_FIELDS error, or undefined when every selection set is within maxRepeats. */
export function repeatedFieldsError(document: DocumentNode, maxRepeats: number): InstanceType<typeof GraphQLError> | undefined {
  const counter = new RepeatCounter(document, maxRepeats);
  let error: InstanceType<typeof GraphQLError> | undefined;
  visit(document, {
    SelectionSet(node) {
      for (const [name, count] of counter.countsOf(node)) {
        if (count <= maxRepeats) continue;
        error = new GraphQLError(
          `the field "${name}" is selected more than ${maxRepeats} times in one selection set; the limit is ${maxRepeats}`,
          { nodes: [node], extensions: { code: 'QUERY_TOO_MANY_REPEATED_FIELDS', field: name, limit: maxRepeats } },
        );
        return BREAK;
      }
      return undefined;
    },
  });
  return error;
}

/** RepeatCounter counts response names per selection set as graphql-js merges them, fragments memoized. */
class RepeatCounter {
  readonly #fragments = new Map<string, FragmentDefinitionNode>();
  readonly #memo = new Map<string, Counts>();
  readonly #visiting = new Set<string>();

  constructor(document: DocumentNode, private readonly maxRepeats: number) {
    for (const definition of document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) this.#fragments.set(definition.name.value, definition);
    }
  }

  /** countsOf counts a set's fields, those of its inline fragments, and those of each fragment it spreads (once per name). */
  countsOf(set: SelectionSetNode): Counts {
    const counts: Counts = new Map();
    const spreads = new Set<string>();
    this.#collect(set, counts, spreads);
    for (const name of spreads) {
      for (const [field, count] of this.#fragmentCounts(name)) this.#add(counts, field, count);
    }
    return counts;
  }

  #collect(set: SelectionSetNode, counts: Counts, spreads: Set<string>): void {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) this.#add(counts, (selection.alias ?? selection.name).value, 1);
      else if (selection.kind === Kind.INLINE_FRAGMENT) this.#collect(selection.selectionSet, counts, spreads);
      else spreads.add(selection.name.value);
    }
  }

  #fragmentCounts(name: string): Counts {
    const known = this.#memo.get(name);
    if (known !== undefined) return known;
    const fragment = this.#fragments.get(name);
    // Unknown and cyclic fragments are reported by graphql-js' own rules.
    if (fragment === undefined || this.#visiting.has(name)) return new Map();
    this.#visiting.add(name);
    const counts = this.countsOf(fragment.selectionSet);
    this.#visiting.delete(name);
    this.#memo.set(name, counts);
    return counts;
  }

  #add(counts: Counts, field: string, count: number): void {
    counts.set(field, Math.min(this.maxRepeats + 1, (counts.get(field) ?? 0) + count));
  }
}
