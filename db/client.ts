import { createClient, type Client } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { schema } from './schema/index';
import { installStatementCache } from './statement-cache';
import type { BinderyDb } from './types';

export interface DatabaseOptions {
  /** `file:…`, `:memory:`, `libsql://…` or `https://…` (Turso). */
  url: string;
  authToken?: string;
}

export interface Database {
  db: BinderyDb;
  client: Client;
  close(): void;
}

/** Opens a libSQL database (embedded file, memory or remote Turso) wrapped in drizzle. */
export function createDatabase(options: DatabaseOptions): Database {
  const url = options.url === ':memory:' ? 'file::memory:' : options.url;
  if (url.startsWith('file:')) installStatementCache();
  const client = createClient({ url, authToken: options.authToken });
  const db: BinderyDb = drizzle(client, { schema });
  return { db, client, close: () => client.close() };
}
