// The seeds of the randomised tests, chosen once per `npm test` run: the HTTP fuzz test
// (test/fuzz) draws its requests from FUZZ_SEED, the property tests (test/property) run
// fast-check with FC_SEED. Each comes from its environment variable when set, else from one
// random seed for the run; both are printed once, at the start, so a failure can be replayed
// with the line printed.
// vitest runs the default export once, as its global setup, and hands the seeds to every test
// file; a test reads them with runSeeds().

import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';

/** RunSeeds are the seeds of one run. */
export interface RunSeeds {
  readonly fuzz: number;
  readonly property: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    runSeeds: RunSeeds;
  }
}

/** chooseRunSeeds takes each seed from its variable, or the same random seed for both when unset. */
export function chooseRunSeeds(env: Readonly<Record<string, string | undefined>>, random: () => number = Math.random): RunSeeds {
  const drawn = Math.floor(random() * 2 ** 31);
  return { fuzz: seedFrom(env, 'FUZZ_SEED') ?? drawn, property: seedFrom(env, 'FC_SEED') ?? drawn };
}

/** seedFrom reads an integer seed from a variable; a value that is not one fails the run at once. */
function seedFrom(env: Readonly<Record<string, string | undefined>>, name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const seed = Number(text);
  if (!Number.isSafeInteger(seed)) throw new Error(`${name} must be an integer seed, got "${text}"`);
  return seed;
}

/** runSeeds are this run's seeds, inside a test file. */
export function runSeeds(): RunSeeds {
  return inject('runSeeds');
}

/** setup is vitest's global setup: it chooses the run's seeds, prints them, and provides them to the test files. */
export default function setup(project: TestProject): void {
  const seeds = chooseRunSeeds(process.env);
  console.log(`test seeds: FUZZ_SEED=${seeds.fuzz} FC_SEED=${seeds.property} (set them to replay this run)`);
  project.provide('runSeeds', seeds);
}
