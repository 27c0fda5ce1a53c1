// The first page of a large list without sorting the whole list: a client that asks for one page
// (limit=1 to learn the resourceVersion, kubectl's first chunk of 500) of a million matches would
// otherwise wait for a sort of all of them, and so would every other request the process serves.

/** firstInOrder returns the k smallest items by compare, sorted; one pass, O(n log k) comparisons. */
export function firstInOrder<T>(items: readonly T[], k: number, compare: (a: T, b: T) => number): T[] {
  const best: T[] = [];
  if (k <= 0) return best;
  for (const item of items) {
    if (best.length === k && compare(item, best[k - 1] as T) >= 0) continue;
    // Binary search for the first kept item larger than item: equal items keep their order.
    let low = 0;
    let high = best.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compare(best[mid] as T, item) <= 0) low = mid + 1;
      else high = mid;
    }
    best.splice(low, 0, item);
    if (best.length > k) best.pop();
  }
  return best;
}
