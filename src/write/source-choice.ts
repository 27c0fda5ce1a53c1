// Which running source a write goes to. A write may name its shard; with none named, it goes to
// the only connected source, and it is refused when there is none yet or when several could serve it.

import { AppError } from '../errors.js';

/** The source a write goes to: the named shard, or the only source when none is named. */
export function chooseSource<S>(sources: ReadonlyMap<string, S>, shard: string | undefined): { shard: string; source: S } {
  const names = [...sources.keys()].sort();
  if (shard !== undefined && shard !== '') {
    const source = sources.get(shard);
    if (source === undefined) {
      throw new AppError('BadRequest', `shard "${shard}" is not a connected source (sources: ${names.join(', ') || 'none'})`, {
        causes: [{ reason: 'FieldValueNotSupported', field: 'shard', message: `supported values: ${names.join(', ')}` }],
      });
    }
    return { shard, source };
  }
  const [only, second] = names;
  if (only === undefined) throw new AppError('ServiceUnavailable', 'no source is connected yet', { retryAfterSeconds: 1 });
  if (second !== undefined) {
    throw new AppError('BadRequest', `several sources serve writes (${names.join(', ')}); pass shard to choose one`, {
      causes: [{ reason: 'FieldValueRequired', field: 'shard', message: `one of: ${names.join(', ')}` }],
    });
  }
  return { shard: only, source: sources.get(only) as S };
}
