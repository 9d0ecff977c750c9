ALTER TABLE `comments` ADD `counts_key` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `comments` ADD `fence` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `help_topics` ADD `counts_key` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `shares` ADD `accepted_at` integer;--> statement-breakpoint
ALTER TABLE `versions` ADD `counts_key` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `versions` ADD `head_cut` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `versions` ADD `fence` text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE `shares` SET `accepted_at` = `created_at` WHERE `grantee_id` IS NOT NULL;--> statement-breakpoint
UPDATE `versions` SET `fence` = lower(hex(randomblob(6))), `counts_key` = coalesce((SELECT `value` FROM `settings` WHERE `key` = 'render_key'), '');--> statement-breakpoint
UPDATE `versions` SET `fence` = lower(hex(randomblob(9))) WHERE instr(`content`, `fence`) > 0;--> statement-breakpoint
UPDATE `comments` SET `fence` = lower(hex(randomblob(6)));--> statement-breakpoint
UPDATE `comments` SET `fence` = lower(hex(randomblob(9))) WHERE instr(`body`, `fence`) > 0;
