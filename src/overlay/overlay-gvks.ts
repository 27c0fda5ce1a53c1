// Which kinds the overlay covers, config `cache.gvks`, already parsed by the config into group,
// version and kind. Kinds not listed pass through untouched, as in the seed.

/** OverlaidKind is one kind from the config; group is '' for the core group. */
export interface OverlaidKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** OverlayGvks answers whether writes and reads of a kind go through the overlay. */
export interface OverlayGvks {
  /** isOverlaid takes the core group as '' or 'core'. */
  isOverlaid(group: string, version: string, kind: string): boolean;
  readonly size: number;
}

/** overlayGvks builds the lookup of the overlaid kinds; a kind listed twice counts once. */
export function overlayGvks(kinds: readonly OverlaidKind[]): OverlayGvks {
  const known = new Set(kinds.map((k) => gvkKey(k.group, k.version, k.kind)));
  return {
    size: known.size,
    isOverlaid: (group, version, kind) => known.has(gvkKey(group, version, kind)),
  };
}

// The core group has two spellings; both map to ''.
function gvkKey(group: string, version: string, kind: string): string {
  return `${group === 'core' ? '' : group}/${version}/${kind}`;
}
