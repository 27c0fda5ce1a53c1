// How the system bench's figures print their numbers.

/** fmt is a whole number with thousands separators. */
export const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** ms is a duration in milliseconds, two decimals below 10 ms. */
export const ms = (n: number): string => `${n < 10 ? n.toFixed(2) : n.toFixed(1)} ms`;

/** count is an object count as 20k or 1M. */
export const count = (n: number): string => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`);

/** mib is a byte count in MiB, one decimal. */
export const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** Figure is one row of the results. */
export interface Figure {
  readonly id: string;
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** text is the value as printed, with whatever detail helps read it. */
  readonly text: string;
  readonly reference?: { readonly name: string; readonly value: number; readonly text: string };
  readonly ratio?: number;
  readonly target?: { readonly text: string; readonly met: boolean };
}
