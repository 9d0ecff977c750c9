// What a sync run says: the summary of a pass and a line per event worth one (`bindery sync` prints
// them; docs/sync.md shows them). Pure text from the sync's own counts and events.
import type { SyncCounts, SyncEvent } from './sync.ts';

/** The summary of one pass, every count named (scripts read it). */
export function summaryLine(dir: string, space: string, c: SyncCounts): string {
  const adopted = c.adopted ? `, ${c.adopted} picked up` : '';
  return `synced ${dir} with @${space}: ${c.created} created, ${c.updated} updated, ${c.renamed} renamed, ${c.deleted} deleted, ${c.written} written to the folder, ${c.removed} removed from the folder, ${c.conflict} conflicts, ${c.skipped} skipped${adopted}`;
}

/** One line for an event worth a line of its own (every event in watch mode). */
export function eventLine(e: SyncEvent, all: boolean): string | undefined {
  switch (e.kind) {
    case 'conflict':
      return `conflict: ${e.path}: ${e.detail}`;
    case 'skipped':
      return `skipped ${e.path}: ${e.reason}`;
    case 'renamed':
      return `renamed ${e.from} → ${e.path} (${e.id})`;
    case 'deleted':
      return `deleted ${e.id}: ${e.path} is gone from the folder (restorable: the web app's Deleted page, /trash)`;
    case 'removed':
      return `removed ${e.path}: ${e.id} was deleted in Bindery`;
    default:
      return all ? `${e.kind} ${e.path} (${e.id}${e.version ? ` v${e.version}` : ''})` : undefined;
  }
}
