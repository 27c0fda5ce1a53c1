// Apply conflicts: the applier would change the value of a field another manager owns. Sharing a
// field is fine while both want the same value; only a change is a conflict. The error is kube's
// 409 Conflict Status, word for word, so that kubectl prints its usual hint about --force-conflicts.

import { AppError } from '../../errors.js';
import type { StatusCause } from '../../errors.js';
import { jsonEqual } from '../../apimachinery/deep-equal.js';
import type { FieldPath } from './field-path.js';
import { isItemElement, pathString, valueAt } from './field-path.js';
import type { FieldSet } from './field-set.js';
import type { ManagedEntry } from './managed-fields.js';
import { compareStrings } from '../../apimachinery/compare-strings.js';

/** Conflict is one field another manager owns and the apply would change. */
export interface Conflict {
  readonly owner: ManagedEntry;
  readonly path: FieldPath;
}

/**
 * findConflicts lists, for every entry but the applier's own, the fields of applied it owns whose
 * value differs between live and merged (the object the apply would store).
 */
export function findConflicts(
  live: unknown, merged: unknown, applied: FieldSet, entries: readonly ManagedEntry[], isApplier: (entry: ManagedEntry) => boolean,
): Conflict[] {
  const conflicts: Conflict[] = [];
  for (const owner of entries) {
    if (isApplier(owner)) continue;
    for (const path of owner.fields.intersection(applied).paths()) {
      if (!sameAt(live, merged, path)) conflicts.push({ owner, path });
    }
  }
  return conflicts.sort((a, b) => compareStrings(a.owner.manager, b.owner.manager) || compareStrings(pathString(a.path), pathString(b.path)));
}

/** conflictError is kube's apply conflict Status: 409, one FieldManagerConflict cause per field. */
export function conflictError(conflicts: readonly Conflict[]): AppError {
  const causes: StatusCause[] = conflicts.map((c) => ({
    reason: 'FieldManagerConflict', message: `conflict with ${managerName(c.owner)}`, field: pathString(c.path),
  }));
  return new AppError('Conflict', conflictMessage(conflicts), { causes });
}

function conflictMessage(conflicts: readonly Conflict[]): string {
  const [only] = conflicts;
  if (conflicts.length === 1 && only !== undefined) {
    return `Apply failed with 1 conflict: conflict with ${managerName(only.owner)}: ${pathString(only.path)}`;
  }
  // Grouped by manager, each manager's fields one per line, as kube prints them.
  const byManager = new Map<string, string[]>();
  for (const c of conflicts) {
    const name = managerName(c.owner);
    byManager.set(name, [...(byManager.get(name) ?? []), pathString(c.path)]);
  }
  const lines: string[] = [];
  for (const [name, paths] of byManager) lines.push(`conflicts with ${name}:`, ...paths.map((p) => `- ${p}`));
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** managerName prints a manager as kube does: an updater also by API version and time. */
function managerName(entry: ManagedEntry): string {
  let name = JSON.stringify(entry.manager);
  if (entry.subresource !== undefined) name += ` with subresource ${JSON.stringify(entry.subresource)}`;
  if (entry.operation === 'Update') name += entry.time === '' ? ` using ${entry.apiVersion}` : ` using ${entry.apiVersion} at ${entry.time}`;
  return name;
}

/**
 * sameAt compares the value at a path before and after the apply. A path ending at a list item
 * stands for the item's presence (its fields are paths of their own), so only that is compared.
 */
function sameAt(live: unknown, merged: unknown, path: FieldPath): boolean {
  const before = valueAt(live, path);
  const after = valueAt(merged, path);
  const last = path[path.length - 1] ?? '';
  if (isItemElement(last)) return (before === undefined) === (after === undefined);
  return jsonEqual(before, after);
}
