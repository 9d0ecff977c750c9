import { fail } from '../errors.ts';
import type { SetItemInput } from '../../db/store/sets.ts';

/** Item edits as `edit_set_items` takes them; positions are 0-based. */
export interface ItemEdits {
  add?: { bindingId: string; position?: number; version?: number }[];
  remove?: string[];
  move?: { bindingId: string; position: number }[];
}

/**
 * Applies removes, then adds (each at its position, default the end), then moves, in the order given;
 * pure, so every step is checked before anything is written. Throws INVALID_INPUT naming the step.
 */
export function applyItemEdits(before: readonly SetItemInput[], edits: ItemEdits): SetItemInput[] {
  const list = [...before];
  const at = (id: string) => list.findIndex((it) => it.bindingId === id);
  const removed = new Set<string>();
  (edits.remove ?? []).forEach((id, i) => {
    if (removed.has(id)) throw fail.invalid(`remove.${i}`, `${id} is listed twice`);
    const p = at(id);
    if (p < 0) throw fail.invalid(`remove.${i}`, `${id} is not in the set`);
    list.splice(p, 1);
    removed.add(id);
  });
  (edits.add ?? []).forEach((a, i) => {
    const p = at(a.bindingId);
    if (p >= 0)
      throw fail.invalid(`add.${i}.bindingId`, `${a.bindingId} is already in the set (position ${p}); a set holds each binding once`);
    const position = a.position ?? list.length;
    if (position > list.length) {
      throw fail.invalid(
        `add.${i}.position`,
        `${position} is past the end: the set has ${list.length} items at that step, so positions 0 to ${list.length} (${list.length} appends)`,
      );
    }
    list.splice(position, 0, { bindingId: a.bindingId, pinnedVersion: a.version ?? null });
  });
  (edits.move ?? []).forEach((m, i) => {
    const p = at(m.bindingId);
    if (p < 0) throw fail.invalid(`move.${i}.bindingId`, `${m.bindingId} is not in the set`);
    if (m.position >= list.length) {
      throw fail.invalid(
        `move.${i}.position`,
        `${m.position} is past the end: the set has ${list.length} items, so positions 0 to ${list.length - 1}`,
      );
    }
    const [item] = list.splice(p, 1);
    list.splice(m.position, 0, item!);
  });
  return list;
}
