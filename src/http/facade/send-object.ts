// Answering with one object and its ETag (the quoted resourceVersion), or 304 Not Modified when
// the request's If-None-Match still matches it.

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KubeObject } from '../../apimachinery/object-meta.js';
import type { JsonText } from '../../apimachinery/json-text.js';

/** sendObject sends the object's JSON with an ETag, or an empty 304 when the client's copy is current. */
export async function sendObject(req: FastifyRequest, reply: FastifyReply, obj: KubeObject, json: JsonText): Promise<FastifyReply> {
  sendObjectNow(req, reply, obj, json);
  return reply;
}

/** sendObjectNow is sendObject for synchronous handlers. */
export function sendObjectNow(req: FastifyRequest, reply: FastifyReply, obj: KubeObject, json: JsonText): void {
  const resourceVersion = obj.metadata.resourceVersion;
  if (resourceVersion) {
    const etag = `"${resourceVersion}"`;
    reply.header('etag', etag);
    if (ifNoneMatchHits(req.headers['if-none-match'], etag)) {
      reply.code(304).send();
      return;
    }
  }
  reply.type('application/json; charset=utf-8').send(json.of(obj));
}

// RFC 9110 §13.1.2: a list of entity tags or `*`, compared weakly (a `W/` prefix is ignored).
function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}
