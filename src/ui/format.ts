// How the dashboard writes times and numbers: short, and the same in every view.

/** formatTime writes a moment as the browser's local time of day (with the date when not today), or unknown when there is none. */
export function formatTime(date: Date | undefined, unknown = 'unknown', now = new Date()): string {
  if (date === undefined) return unknown;
  const sameDay = date.toDateString() === now.toDateString();
  return sameDay ? date.toLocaleTimeString() : date.toLocaleString();
}

/** formatMs writes a duration in milliseconds with a sensible precision. */
export function formatMs(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 10) return `${ms.toFixed(0)} ms`;
  return `${ms.toFixed(2)} ms`;
}

/** formatRate writes events per second. */
export function formatRate(perSecond: number): string {
  return `${perSecond >= 10 ? perSecond.toFixed(0) : perSecond.toFixed(2)}/s`;
}
