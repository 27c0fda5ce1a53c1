// The hottest GraphQL request, a query whose only field is one `object(...)` lookup with literal
// arguments, answered from a plan kept per document text: mercurius' execution (its context, the
// compiled query, the loader and its per-request cache) cost more than the lookup and the answer
// together. A document gets a plan only after it has passed what mercurius would check (the
// repeated-fields limit, then graphql-js validation with the same rules), so a plan never answers
// a request mercurius would refuse. Anything else goes on to mercurius unchanged: other
// documents, GET requests, variables, extensions, reads that must wait first (a consistent read
// on replicas sharing etcd, minResourceVersion), and every request whose lookup fails (mercurius
// looks again and answers the error with its documented codes).
// The answer is the text mercurius' path writes for the same data (answer-text.ts).

import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { DocumentNode, FieldNode, GraphQLField } from 'graphql';
import type { JsonText } from '../apimachinery/json-text.js';
import { principalOf } from '../auth/request-principal.js';
import type { GraphqlCounters } from '../metrics/metrics.js';
import { answerText } from './answer-text.js';
import type { GraphqlAccess } from './graphql-access.js';
import { graphqlJs } from './graphql-runtime.js';
import { objectRef } from './loaders.js';
import type { ObjectArgs } from './loaders.js';
import { readWaitOf } from './read-wait-args.js';

/** PointReadPlan is one planned document: the answer's key (the field's alias or name) and the lookup's arguments. */
export interface PointReadPlan {
  readonly responseKey: string;
  readonly args: ObjectArgs;
}

/**
 * PLANNED_DOCUMENTS and PLANNED_DOCUMENT_CHARS bound the documents remembered (with or without a
 * plan): clients send the same few again and again. The memory is dropped whole when full. A
 * longer document is not planned at all: a lookup is short, and a long document of another shape
 * would otherwise be parsed here on every request before mercurius parses it.
 */
const PLANNED_DOCUMENTS = 256;
const PLANNED_DOCUMENT_CHARS = 4096;

/** PlanDeps: the field planned (Query.object) and the checks a document must pass first. */
export interface PlanDeps {
  readonly objectField: () => GraphQLField<unknown, unknown> | undefined;
  /** accepts runs the checks mercurius runs before execution; false if any fails. */
  readonly accepts: (document: DocumentNode) => boolean;
  readonly maxTokens: number;
}

/** PointReadPlans keeps the plan (or the absence of one) of each document text seen. */
export class PointReadPlans {
  readonly #plans = new Map<string, PointReadPlan | null>();
  readonly #deps: PlanDeps;

  constructor(deps: PlanDeps) {
    this.#deps = deps;
  }

  /** planOf returns the document's plan, undefined when it has none. */
  planOf(query: string): PointReadPlan | undefined {
    if (query.length > PLANNED_DOCUMENT_CHARS) return undefined;
    const known = this.#plans.get(query);
    if (known !== undefined) return known ?? undefined;
    const plan = this.#plan(query);
    if (this.#plans.size >= PLANNED_DOCUMENTS) this.#plans.clear();
    this.#plans.set(query, plan ?? null);
    return plan;
  }

  #plan(query: string): PointReadPlan | undefined {
    const field = this.#deps.objectField();
    let document: DocumentNode;
    try {
      document = graphqlJs.parse(query, { maxTokens: this.#deps.maxTokens });
    } catch {
      return undefined;
    }
    const node = onlyField(document);
    if (field === undefined || node === undefined || node.name.value !== field.name || !this.#deps.accepts(document)) return undefined;
    try {
      const args = graphqlJs.getArgumentValues(field, node) as unknown as ObjectArgs;
      return { responseKey: node.alias?.value ?? node.name.value, args };
    } catch {
      return undefined;
    }
  }
}

/** onlyField is the document's single field when it is one unnamed-or-named query of one plain leaf field. */
function onlyField(document: DocumentNode): FieldNode | undefined {
  if (document.definitions.length !== 1) return undefined;
  const [operation] = document.definitions;
  if (operation?.kind !== graphqlJs.Kind.OPERATION_DEFINITION || operation.operation !== 'query') return undefined;
  if ((operation.variableDefinitions?.length ?? 0) > 0 || (operation.directives?.length ?? 0) > 0) return undefined;
  const selections = operation.selectionSet.selections;
  const [field] = selections;
  if (selections.length !== 1 || field?.kind !== graphqlJs.Kind.FIELD) return undefined;
  if ((field.directives?.length ?? 0) > 0 || field.selectionSet !== undefined) return undefined;
  return field;
}

/** PointReadHookDeps are what the hook answers with. */
export interface PointReadHookDeps {
  readonly plans: PointReadPlans;
  readonly access: GraphqlAccess;
  readonly json: JsonText;
  readonly counters: GraphqlCounters;
}

/** pointReadHook makes the preHandler that answers planned POST requests and lets every other request through. */
export function pointReadHook(deps: PointReadHookDeps): preHandlerAsyncHookHandler {
  return async function answerPlannedPointRead(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const plan = req.method === 'POST' ? plannedRequest(req.body, deps.plans) : undefined;
    if (plan === undefined) return;
    const found = lookup(req, plan, deps.access);
    if (found === undefined) return;
    deps.counters.operation('query');
    await reply.type('application/json; charset=utf-8').send(answerText({ [plan.responseKey]: found }, deps.json));
  };
}

/** plannedRequest is the plan of a POST body that holds only a planned query (no variables, extensions or other operation name). */
function plannedRequest(body: unknown, plans: PointReadPlans): PointReadPlan | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const fields = body as Record<string, unknown>;
  // Checked field by field, without copying the body: this runs for every GraphQL POST.
  for (const key in fields) {
    if (key === 'query' || key === 'variables') continue;
    if ((key === 'operationName' || key === 'extensions') && fields[key] == null) continue;
    return undefined;
  }
  const { query, variables } = fields;
  if (typeof query !== 'string') return undefined;
  if (variables != null && (typeof variables !== 'object' || Object.keys(variables).length > 0)) return undefined;
  return plans.planOf(query);
}

/**
 * lookup finds the planned object as the loader would (the same read model, narrowed to the
 * request's principal); undefined for a read that would wait first (mercurius then waits, once)
 * and for any failure (mercurius finds it again and answers it).
 */
function lookup(req: FastifyRequest, plan: PointReadPlan, access: GraphqlAccess): object | undefined {
  try {
    const scoped = access.read({ principal: principalOf(req) });
    if (!scoped.readsAtOnce(readWaitOf(plan.args))) return undefined;
    return scoped.findObject(objectRef(plan.args)).object;
  } catch {
    return undefined;
  }
}
