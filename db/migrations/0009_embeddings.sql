-- Optional embeddings (issue 15): one vector per binding, for its current version and the configured model; empty unless BINDERY_EMBEDDINGS_URL is set.
CREATE TABLE `binding_vectors` (
	`binding_id` text PRIMARY KEY NOT NULL,
	`version_id` text NOT NULL,
	`model` text NOT NULL,
	`dims` integer NOT NULL,
	`vector` F32_BLOB NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`binding_id`) REFERENCES `bindings`(`id`) ON UPDATE no action ON DELETE no action
);
