import { sqliteTable, text, integer, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { bindingsTable } from './bindings.ts';
import { usersTable } from './users.ts';

/**
 * One immutable version of a binding. Token counts are exact for the configured tokenizer and
 * computed once at write time; `*_block_tokens` are the counts of the rendered tier blocks so
 * reads and budget packing never re-tokenize stored text.
 */
export const versionsTable = sqliteTable(
  'versions',
  {
    id: text('id').primaryKey(),
    bindingId: text('binding_id')
      .notNull()
      .references(() => bindingsTable.id),
    number: integer('number').notNull(),
    name: text('name').notNull(),
    summary: text('summary').notNull(),
    keyPoints: text('key_points', { mode: 'json' }).$type<string[]>().notNull(),
    content: text('content').notNull(),
    contentPreview: text('content_preview').notNull(),
    contentChars: integer('content_chars').notNull(),
    contentHash: text('content_hash').notNull(),
    contentTokenCount: integer('content_token_count').notNull(),
    summaryTokenCount: integer('summary_token_count').notNull(),
    headBlockTokens: integer('head_block_tokens').notNull(),
    /** Exact tokens of the tier-0 line (0 on rows written before tier 0, until recounted: their key is older). */
    lineBlockTokens: integer('line_block_tokens').notNull().default(0),
    previewBlockTokens: integer('preview_block_tokens').notNull(),
    contentBlockTokens: integer('content_block_tokens').notNull(),
    /** Exact tokens of the tier-1.5 outline block (0 when the content has fewer than two sections). */
    outlineBlockTokens: integer('outline_block_tokens').notNull().default(0),
    /**
     * The content's sections as compact JSON (core/budget/outline.ts): each span, heading and the exact
     * tokens of its rendered block, plus how many the outline lists. Made with the counts above (same
     * key); '' on rows written before sections existed, until recounted. Only section reads, tier-1.5
     * outlines and query packing select it: lists never load it.
     */
    sections: text('sections').notNull().default(''),
    /**
     * The render key (render revision, tokenizer, public URL) the counts above and `headCut` were made
     * for. A process whose key differs recounts the row in memory instead of trusting it, so processes
     * with different settings can share one database without ever reading another's counts.
     */
    countsKey: text('counts_key').notNull().default(''),
    /** How much of name, summary and key points the tier-1 card shows (JSON, chosen by tokens at write time). */
    headCut: text('head_cut').notNull().default(''),
    /** Random marker, absent from the content, that fences content in every rendering (unforgeable framing). */
    fence: text('fence').notNull().default(''),
    source: text('source', { enum: ['human', 'llm'] }).notNull(),
    model: text('model'),
    authorId: text('author_id')
      .notNull()
      .references(() => usersTable.id),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('versions_binding_number_uq').on(t.bindingId, t.number)],
);
