CREATE TABLE `sync_files` (
	`root_id` text NOT NULL,
	`path` text NOT NULL,
	`binding_id` text NOT NULL,
	`version` integer NOT NULL,
	`hash` text NOT NULL,
	`size` integer NOT NULL,
	`mtime_ms` integer NOT NULL,
	`format` text NOT NULL,
	`synced_at` integer NOT NULL,
	FOREIGN KEY (`root_id`) REFERENCES `sync_roots`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`binding_id`) REFERENCES `bindings`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sync_files_root_path_uq` ON `sync_files` (`root_id`,`path`);--> statement-breakpoint
CREATE INDEX `sync_files_binding_idx` ON `sync_files` (`binding_id`);--> statement-breakpoint
CREATE TABLE `sync_roots` (
	`id` text PRIMARY KEY NOT NULL,
	`path` text NOT NULL,
	`space_id` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sync_roots_path_uq` ON `sync_roots` (`path`);