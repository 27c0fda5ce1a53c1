// The notes a results file carries about how its run departed from the default one, so a reader
// of bench/results/latest.md knows which figures were measured at less than their target scale.

/** RunSettings are what a run was started with. */
export interface RunSettings {
  readonly scaleN: number;
  /** scaleTargetNs are the object counts the scale step has targets at. */
  readonly scaleTargetNs: readonly number[];
  /** phases: the PHASES filter, if any. */
  readonly phases: readonly string[] | undefined;
  readonly replicationWorkers: number | undefined;
  /** extra: free text from BENCH_NOTE. */
  readonly extra: string | undefined;
}

/** notesOf lists the run's departures from the default run. */
export function notesOf(s: RunSettings): string[] {
  const notes: string[] = [];
  if (!s.scaleTargetNs.includes(s.scaleN)) {
    const at = s.scaleTargetNs.map((n) => n.toLocaleString('en-US')).join(' or ');
    notes.push(`The scale phase ran at SCALE_N=${s.scaleN.toLocaleString('en-US')} objects, not ${at}: its targets were not measured.`);
  }
  if (s.phases) notes.push(`Only the phases ${s.phases.join(', ')} ran (PHASES): the results are partial.`);
  if (s.replicationWorkers !== undefined) notes.push(`The durable phases ran with workers.replication = ${s.replicationWorkers} (REPLICATION_WORKERS).`);
  if (s.extra) notes.push(s.extra);
  return notes;
}
