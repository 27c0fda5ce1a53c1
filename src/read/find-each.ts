// Many point reads at once (GraphQL loaders): each entry is the found object or the error of its
// own lookup, so one miss does not fail the others. Point reads are synchronous, so this is one
// loop without a promise per lookup.

import type { FoundObject, ObjectRef, ReadModel } from './read-model.js';

/** findEach runs findObject for every ref and keeps each failure as that entry's Error. */
export function findEach(read: Pick<ReadModel, 'findObject'>, refs: readonly ObjectRef[]): Array<FoundObject | Error> {
  return refs.map((ref) => {
    try {
      return read.findObject(ref);
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  });
}
