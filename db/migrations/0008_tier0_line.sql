-- Tier 0 (issue 15): the stored exact token count of a version's one-line form. Rows written before it
-- keep 0 under an older render key, so every process recounts them (RENDER_REVISION 5) until upkeep rewrites them.
ALTER TABLE `versions` ADD `line_block_tokens` integer DEFAULT 0 NOT NULL;