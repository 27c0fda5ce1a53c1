// Group/version/resource vocabulary and the schema string `<version>.<resource>.<group>`, where
// the empty core group is written `core`.

/** GroupResource names a resource without its version; group is '' for the core group. */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

/** GroupVersionResource names a resource at one version; group is '' for the core group. */
export interface GroupVersionResource extends GroupResource {
  readonly version: string;
}

/** CORE_GROUP_NAME is how the empty core group is written inside keys, labels and paths. */
export const CORE_GROUP_NAME = 'core';

/** groupName writes a group for use in keys and labels: '' becomes `core`. */
export function groupName(group: string): string {
  return group === '' ? CORE_GROUP_NAME : group;
}

/** groupFromName reads a group written by groupName back: `core` becomes ''. */
export function groupFromName(name: string): string {
  return name === CORE_GROUP_NAME ? '' : name;
}

/** schemaOf gives the schema string `<version>.<resource>.<group>` of a GVR. */
export function schemaOf(gvr: GroupVersionResource): string {
  return `${gvr.version}.${gvr.resource}.${groupName(gvr.group)}`;
}

/** groupResourceKey gives `<resource>.<group>` (group `core` when empty). */
export function groupResourceKey(gr: GroupResource): string {
  return `${gr.resource}.${groupName(gr.group)}`;
}

/** apiVersionOf gives the apiVersion string of a group and version (`v1` for core). */
export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}
