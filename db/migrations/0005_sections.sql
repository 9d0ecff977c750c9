ALTER TABLE `versions` ADD `outline_block_tokens` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `versions` ADD `sections` text DEFAULT '' NOT NULL;