import { sqliteTable, text, integer, uniqueIndex, index } from 'drizzle-orm/sqlite-core';
import { spacesTable } from './spaces.ts';
import { bindingsTable } from './bindings.ts';

/**
 * A folder kept in step with a space by `bindery sync`: its real path on the machine that syncs it.
 * A folder pairs with one space (a second `--space` for it is refused); a space may pair with several.
 */
export const syncRootsTable = sqliteTable(
  'sync_roots',
  {
    id: text('id').primaryKey(),
    path: text('path').notNull(),
    spaceId: text('space_id')
      .notNull()
      .references(() => spacesTable.id),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('sync_roots_path_uq').on(t.path)],
);

/**
 * One file of a synced folder as it was when it and its binding were last in step: the binding
 * version it holds, the SHA-256 of its bytes, and the size and mtime that let a later run skip
 * reading it when neither changed. `format` is how the file is written back: `plain` (the binding's
 * content is the whole file) or `export` (export front matter + content, core/services/export-format.ts).
 */
export const syncFilesTable = sqliteTable(
  'sync_files',
  {
    rootId: text('root_id')
      .notNull()
      .references(() => syncRootsTable.id),
    /** Relative to the root, `/`-separated, never `..` or absolute. */
    path: text('path').notNull(),
    bindingId: text('binding_id')
      .notNull()
      .references(() => bindingsTable.id),
    version: integer('version').notNull(),
    hash: text('hash').notNull(),
    size: integer('size').notNull(),
    mtimeMs: integer('mtime_ms').notNull(),
    format: text('format', { enum: ['plain', 'export'] }).notNull(),
    syncedAt: integer('synced_at').notNull(),
  },
  (t) => [uniqueIndex('sync_files_root_path_uq').on(t.rootId, t.path), index('sync_files_binding_idx').on(t.bindingId)],
);
