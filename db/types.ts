import type { LibSQLDatabase } from 'drizzle-orm/libsql';
import type { schema } from './schema/index.ts';

/**
 * The drizzle database the store runs on. Typed as libSQL's; Cloudflare D1's drizzle database has
 * the same query and `batch` surface and is passed in as this type by the Worker adapter.
 */
export type BinderyDb = LibSQLDatabase<typeof schema>;
