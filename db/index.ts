// The storage entry point (`bindery/db`): a client factory and the migrator.
export { createDatabase, type Database, type DatabaseOptions } from './client.ts';
export { migrate, migrationsCurrent } from './migrate.ts';
export type { BinderyDb } from './types.ts';
export { schema } from './schema/index.ts';
