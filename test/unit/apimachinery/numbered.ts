// Numbers table rows so that it.each names read "case 3: ..." and a failure points at its row.

/** numbered adds a 1-based `n` to every row of a test table. */
export function numbered<T extends object>(rows: readonly T[]): (T & { n: number })[] {
  return rows.map((row, index) => ({ ...row, n: index + 1 }));
}
