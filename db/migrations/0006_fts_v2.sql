-- Search index v2 (issue 9): contentless (content=''), so the index no longer keeps a second copy of
-- every document; rows are removed by rowid (contentless_delete). A `headings` column ranks Markdown
-- headings above body text. The rows are filled by db/store/fts.ts `rebuildSearchIndex` right after
-- migrating (headings are extracted in code), gated by the `fts_v2_built` setting.
DROP TABLE IF EXISTS `bindings_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `bindings_fts` USING fts5(
  `name`,
  `summary`,
  `key_points`,
  `headings`,
  `content`,
  content = '',
  contentless_delete = 1,
  tokenize = 'porter unicode61'
);
--> statement-breakpoint
DELETE FROM `settings` WHERE `key` = 'fts_v2_built';
