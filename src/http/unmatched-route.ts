// Requests no route serves. A path that routes serve with other methods is 405 MethodNotAllowed
// with `Allow` naming those methods (HTTP requires the header on a 405); any other path is 404
// NotFound, worded as kube-apiserver words it, on every API.

import type { FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { sendStatus } from '../apimachinery/status.js';
import { AppError } from '../errors.js';

/** ROUTABLE_METHODS are the methods a route of cachegate may be registered for. */
const ROUTABLE_METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * answerUnmatchedRoute is the not-found handler of the whole app. A route that serves this very
 * method may send a request here too (reply.callNotFound, e.g. an unknown asset): that is a 404.
 */
export function answerUnmatchedRoute(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const allowed = servedByRoute(req, req.method as HTTPMethods) ? [] : allowedMethods(req);
  if (allowed.length === 0) return sendStatus(reply, new AppError('NotFound', 'the server could not find the requested resource'));
  reply.header('allow', allowed.join(', '));
  return sendStatus(reply, new AppError('MethodNotAllowed', `the server does not allow this method on the requested resource (${req.method}); allowed: ${allowed.join(', ')}`));
}

/** allowedMethods are the methods some route serves this request's path with. */
function allowedMethods(req: FastifyRequest): HTTPMethods[] {
  return ROUTABLE_METHODS.filter((method) => method !== req.method && servedByRoute(req, method));
}

/** servedByRoute tells whether a route serves this request's path with a method. */
function servedByRoute(req: FastifyRequest, method: HTTPMethods): boolean {
  // findRoute returns null for no match, although its typings do not say so.
  return (req.server.findRoute({ method, url: req.url }) as unknown) != null;
}
