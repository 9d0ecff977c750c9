import { createClient, type Client } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { schema } from './schema/index.ts';
import { EmbeddedClient } from './embedded-client.ts';
import type { DbEvents } from './busy.ts';
import type { BinderyDb } from './types.ts';

export interface DatabaseOptions {
  /** `file:…`, `:memory:`, `libsql://…` or `https://…` (Turso). */
  url: string;
  authToken?: string;
  /** Busy retries and failed calls of an embedded database are told here (remote clients: not yet). */
  events?: DbEvents;
}

export interface Database {
  db: BinderyDb;
  client: Client;
  close(): void;
}

/**
 * Opens a libSQL database wrapped in drizzle. Embedded files and `:memory:` use Bindery's own client
 * (WAL, busy timeout and retries, a statement cache: see embedded-client.ts); remote URLs (Turso,
 * `libsql://`, `https://`) use `@libsql/client`.
 */
export function createDatabase(options: DatabaseOptions): Database {
  const client: Client =
    embeddedPath(options.url) !== undefined
      ? new EmbeddedClient(embeddedPath(options.url)!, { events: options.events })
      : createClient({ url: options.url, authToken: options.authToken });
  const db: BinderyDb = drizzle(client, { schema });
  return { db, client, close: () => client.close() };
}

/** The file path of an embedded URL (`:memory:` for memory), or undefined for a remote one. */
export function embeddedPath(url: string): string | undefined {
  if (url === ':memory:' || url === 'file::memory:') return ':memory:';
  if (!url.startsWith('file:')) return undefined;
  const rest = url.slice('file:'.length).replace(/[?#].*$/, '');
  // file:///abs/path and file://localhost/abs/path name absolute paths; file:rel and file:/abs as written.
  if (rest.startsWith('//')) return decodeURIComponent(rest.replace(/^\/\/(localhost)?/, ''));
  return decodeURIComponent(rest);
}
