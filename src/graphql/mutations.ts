// Resolvers of the SDL's Mutation type, over the one write service that REST writes use too:
// every mutation goes to the source, and what the source answered is returned.
// The source's errors come back as they are (a 409 is extensions.code CONFLICT). Without a write
// service (an app that serves reads only) every mutation is METHOD_NOT_ALLOWED. Mutations of one
// document run one after the other (GraphQL's rule for mutation fields), so a document that
// creates and then patches an object does so in that order.
//
// Read-your-writes: over HTTP, each successful write adds its token to the answer's
// `X-Cachegate-Resource-Version` header, as a REST write answers it (one value per write, in the
// order they ran, joined by ", "); a read passes them back as minResourceVersion. The result
// itself stays the source's object, unchanged. Over WebSocket there are no headers.

import type { FastifyReply } from 'fastify';
import type { IResolvers } from 'mercurius';
import { isPlainObject } from '../apimachinery/object-meta.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { AppError } from '../errors.js';
import { minResourceVersionOf } from '../read/min-resource-version.js';
import type { NamedTarget, PatchType, WriteOptions, WriteResult, WriteService, WriteTarget } from '../write/write-service.js';

/** TargetArgs are the arguments every mutation takes (GraphQL passes absent optionals as null or not at all). */
interface TargetArgs {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly cluster: string;
  readonly shard?: string | null;
  readonly namespace?: string | null;
  readonly dryRun?: boolean | null;
}

interface ObjectArgs extends TargetArgs {
  readonly name?: string | null;
  readonly object: unknown;
}

interface PatchArgs extends TargetArgs {
  readonly name: string;
  readonly patch: unknown;
  readonly patchType?: 'MERGE' | 'JSON' | null;
}

interface NameArgs extends TargetArgs {
  readonly name: string;
}

interface SelectorArgs extends TargetArgs {
  readonly labelSelector?: string | null;
}

/** PATCH_TYPES maps the SDL's PatchType to the write service's. */
const PATCH_TYPES: Readonly<Record<'MERGE' | 'JSON', PatchType>> = Object.freeze({ MERGE: 'merge', JSON: 'json' });

/**
 * createMutationResolvers makes the Mutation resolvers over the write service of each operation
 * (writeOf gives it for the operation's context, guarded for its principal; undefined: writes are
 * not configured).
 */
export function createMutationResolvers(writeOf: (context: unknown) => WriteService | undefined): NonNullable<IResolvers['Mutation']> {
  const writes = (context: unknown): WriteService => {
    const write = writeOf(context);
    if (!write) throw new AppError('MethodNotAllowed', 'writes are not configured');
    return write;
  };
  const answer = (context: unknown, result: WriteResult): KubeObject | null => {
    announceToken(context, result);
    return result.object ?? null;
  };
  return {
    createObject: async (_root: unknown, args: ObjectArgs, context: unknown) => {
      const result = await writes(context).create(targetOf(args), objectOf(args.object), optionsOf(args));
      return answer(context, result);
    },
    updateObject: async (_root: unknown, args: ObjectArgs, context: unknown) => {
      const object = objectOf(args.object);
      const result = await writes(context).update(namedTargetOf(args, object), object, optionsOf(args));
      return answer(context, result);
    },
    patchObject: async (_root: unknown, args: PatchArgs, context: unknown) => {
      const result = await writes(context).patch(namedTargetOf(args), patchOf(args), patchTypeOf(args), optionsOf(args));
      return answer(context, result);
    },
    updateObjectStatus: async (_root: unknown, args: ObjectArgs, context: unknown) => {
      const object = objectOf(args.object);
      const result = await writes(context).updateStatus(namedTargetOf(args, object), object, optionsOf(args));
      return answer(context, result);
    },
    patchObjectStatus: async (_root: unknown, args: PatchArgs, context: unknown) => {
      const result = await writes(context).patchStatus(namedTargetOf(args), patchOf(args), patchTypeOf(args), optionsOf(args));
      return answer(context, result);
    },
    deleteObject: async (_root: unknown, args: NameArgs, context: unknown) => {
      const result = await writes(context).delete(namedTargetOf(args), optionsOf(args));
      return answer(context, result);
    },
    deleteObjects: async (_root: unknown, args: SelectorArgs, context: unknown) => {
      const selector = args.labelSelector ?? undefined;
      const result = await writes(context).deleteAllOf(targetOf(args), selector === '' ? undefined : selector, optionsOf(args));
      return { apiVersion: 'v1', kind: 'List', metadata: {}, items: result.items };
    },
  };
}

/** targetOf turns the common arguments into a write target (null = not given). */
function targetOf(args: TargetArgs): WriteTarget {
  return {
    group: args.group, version: args.version, resource: args.resource, cluster: args.cluster,
    ...(args.shard != null ? { shard: args.shard } : {}),
    ...(args.namespace != null ? { namespace: args.namespace } : {}),
  };
}

/**
 * namedTargetOf adds the object's name: the `name` argument, or else the given object's
 * metadata.name. Both given and different is BAD_REQUEST, as a PUT to another name would be.
 */
function namedTargetOf(args: TargetArgs & { readonly name?: string | null }, object?: KubeObject): NamedTarget {
  const own = object?.metadata.name;
  const name = args.name ?? own;
  if (name === undefined || name === '') throw new AppError('BadRequest', 'name is required: give `name` or the object\'s metadata.name');
  if (own !== undefined && own !== name) {
    throw new AppError('BadRequest', `the name of the object (${own}) does not match the name argument (${name})`);
  }
  return { ...targetOf(args), name };
}

/** objectOf checks that a JSON argument is a Kubernetes object (a JSON object; metadata an object when given). */
function objectOf(value: unknown): KubeObject {
  if (!isPlainObject(value)) throw new AppError('BadRequest', '`object` must be a JSON object');
  const metadata = value['metadata'];
  if (metadata !== undefined && !isPlainObject(metadata)) throw new AppError('BadRequest', '`object.metadata` must be a JSON object');
  const name = isPlainObject(metadata) ? metadata['name'] : undefined;
  if (name !== undefined && typeof name !== 'string') throw new AppError('BadRequest', '`object.metadata.name` must be a string');
  return { ...value, metadata: metadata ?? {} } as KubeObject;
}

/** patchOf checks the patch document's shape against its type: a merge patch is an object, a JSON patch an array. */
function patchOf(args: PatchArgs): unknown {
  const type = patchTypeOf(args);
  if (type === 'merge' && !isPlainObject(args.patch)) throw new AppError('BadRequest', 'a MERGE patch must be a JSON object');
  if (type === 'json' && !Array.isArray(args.patch)) throw new AppError('BadRequest', 'a JSON patch must be an array of operations');
  return args.patch;
}

function patchTypeOf(args: PatchArgs): PatchType {
  return PATCH_TYPES[args.patchType ?? 'MERGE'];
}

function optionsOf(args: TargetArgs): WriteOptions {
  return args.dryRun ? { dryRun: true } : {};
}

/** TOKEN_HEADER is the header REST writes answer with their token. */
const TOKEN_HEADER = 'x-cachegate-resource-version';

/** announceToken adds a write's token to the HTTP answer (no reply: a WebSocket operation). */
function announceToken(context: unknown, result: WriteResult): void {
  const reply = typeof context === 'object' && context !== null ? (context as { reply?: FastifyReply }).reply : undefined;
  const token = minResourceVersionOf(result);
  if (reply === undefined || token === undefined) return;
  const earlier = reply.getHeader(TOKEN_HEADER);
  reply.header(TOKEN_HEADER, typeof earlier === 'string' && earlier !== '' ? `${earlier}, ${token}` : token);
}
