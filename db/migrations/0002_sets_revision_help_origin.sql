ALTER TABLE `help_topics` ADD `origin` text DEFAULT 'seed' NOT NULL;--> statement-breakpoint
ALTER TABLE `sets` ADD `revision` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `set_items_set_position_idx` ON `set_items` (`set_id`,`position`);