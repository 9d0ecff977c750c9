-- Full-text index over the latest version of each live binding, kept in step by the store in the
-- same batch as the version write. Ranked with bm25() (negative: lower is better).
CREATE VIRTUAL TABLE `bindings_fts` USING fts5(
  `binding_id` UNINDEXED,
  `name`,
  `summary`,
  `key_points`,
  `content`,
  tokenize = 'porter unicode61'
);
