// What one GraphQL operation may read and write: the read model and write service
// narrowed to the principal in the operation's context (set from the request's bearer token, or
// from a WebSocket's connection_init payload). With auth on, an operation without a principal
// (a subscription connection that sent no token) is UNAUTHENTICATED.

import { AppError } from '../errors.js';
import type { Principal } from '../auth/principal.js';
import { scopeReadModel } from '../auth/scoped-read-model.js';
import { scopeWriteService } from '../auth/scoped-write-service.js';
import type { ReadModel } from '../read/read-model.js';
import type { WriteService } from '../write/write-service.js';

/** GraphqlAccess gives resolvers the read model and write service of their operation. */
export interface GraphqlAccess {
  read(context: unknown): ReadModel;
  /** write is undefined when the app serves no writes. */
  write(context: unknown): WriteService | undefined;
}

/** graphqlAccess builds the access rules; authRequired: every operation needs a principal. */
export function graphqlAccess(read: ReadModel, write: WriteService | undefined, authRequired: boolean): GraphqlAccess {
  const principal = (context: unknown): Principal | null => {
    const found = typeof context === 'object' && context !== null ? (context as { principal?: Principal | null }).principal ?? null : null;
    if (found === null && authRequired) {
      throw new AppError('Unauthorized', 'Unauthorized: send "Authorization: Bearer <token>", or {"authorization": "Bearer <token>"} as the connection_init payload');
    }
    return found;
  };
  return {
    read: (context) => scopeReadModel(read, principal(context)),
    write: (context) => (write === undefined ? undefined : scopeWriteService(write, principal(context))),
  };
}
