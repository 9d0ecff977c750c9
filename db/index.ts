// The storage entry point (`bindery/db`): a client factory and the migrator.
export { createDatabase, type Database, type DatabaseOptions } from './client';
export { migrate, migrationsCurrent } from './migrate';
export type { BinderyDb } from './types';
export { schema } from './schema/index';
