// A kind named in the config, `"<group>/<version>/<Kind>"`. The core group may be written
// `v1/Secret` (the seed's form), `/v1/Secret` or `core/v1/Secret`; all three mean group ''.

/** GroupVersionKind names a kind at one version; group is '' for the core group. */
export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** GVK_FORMAT is how the config writes a kind, for messages and docs. */
export const GVK_FORMAT = '"<group>/<version>/<Kind>"';

const GVK = /^(?:([a-z0-9.-]*)\/)?([a-z0-9]+)\/([A-Za-z][A-Za-z0-9]*)$/;

/** parseGvk reads `"<group>/<version>/<Kind>"`, or gives undefined when the text is not one. */
export function parseGvk(text: string): GroupVersionKind | undefined {
  const match = GVK.exec(text);
  if (match === null) return undefined;
  const [, group = '', version = '', kind = ''] = match;
  return { group: group === 'core' ? '' : group, version, kind };
}
