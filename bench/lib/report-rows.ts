// The figures table the in-process benches print: one row per figure, with its goal and whether
// the goal was met.

/** Row is one printed figure. */
export interface Row {
  readonly metric: string;
  readonly value: string;
  readonly goal: string;
  readonly ok: string;
}

/** ReportRows collects figures and prints them as one table. */
export class ReportRows {
  readonly #rows: Row[] = [];

  /** add records a figure; ok undefined means the figure has no goal to meet. */
  add(metric: string, value: string, goal = '', ok?: boolean): void {
    this.#rows.push({ metric, value, goal, ok: ok === undefined ? '' : ok ? 'yes' : 'NO' });
  }

  /** print writes the table to stdout. */
  print(): void {
    console.table(this.#rows);
  }
}
