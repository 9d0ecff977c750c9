ALTER TABLE `shares` ADD `link_hash` text;--> statement-breakpoint
CREATE INDEX `shares_link_idx` ON `shares` (`link_hash`);