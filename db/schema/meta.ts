import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core';

/** Help topics for models, seeded from the repo and replaceable at run time. */
export const helpTopicsTable = sqliteTable('help_topics', {
  topic: text('topic').primaryKey(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  tokenCount: integer('token_count').notNull(),
  /** The tokenizer `tokenCount` was made for. */
  countsKey: text('counts_key').notNull().default(''),
  updatedAt: integer('updated_at').notNull(),
  /** `seed`: from help/*.md, refreshed on start. `cli`: set by `bindery help set`; a seed never overwrites it. */
  origin: text('origin', { enum: ['seed', 'cli'] })
    .notNull()
    .default('seed'),
});

/** Server-wide settings: the cursor-signing secret, the render key token counts were made for. */
export const settingsTable = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});
