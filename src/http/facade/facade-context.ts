// What the facade's route modules share within one app instance.

import type { FastifyRequest } from 'fastify';
import type { ReadModel } from '../../read/read-model.js';
import type { WriteService } from '../../write/write-service.js';
import type { JsonText } from '../../apimachinery/json-text.js';
import type { OpenApiDocument } from './openapi-document.js';
import type { SseLimits } from './serve-sse.js';
import type { SseStreams } from './sse-streams.js';

/** FacadeContext is the state of one facade: its data, contract, encoder and open streams. */
export interface FacadeContext {
  readonly read: ReadModel;
  /** write is the write service; undefined in a read-only facade. */
  readonly write?: WriteService;
  readonly document: OpenApiDocument;
  readonly json: JsonText;
  readonly streams: SseStreams;
  readonly sseLimits: SseLimits;
  /** readOf is the read model as the request's principal sees it (narrowed to its clusters). */
  readOf(req: FastifyRequest): ReadModel;
  /** writeOf is the write service guarded for the request's principal; undefined in a read-only facade. */
  writeOf(req: FastifyRequest): WriteService | undefined;
}
