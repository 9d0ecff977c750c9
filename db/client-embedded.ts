// Embedded databases (a file or `:memory:`) on Bindery's own client, wrapped in drizzle, without
// loading `@libsql/client`'s remote protocols (the stdio server's start-up reads none of them).
import { drizzle } from 'drizzle-orm/libsql/sqlite3';
import type { Client } from '@libsql/client';
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

/** Opens the embedded database at `path` (from embeddedPath) on Bindery's client, wrapped in drizzle. */
export function openEmbedded(path: string, options: Pick<DatabaseOptions, 'events'> = {}): Database {
  const client: Client = new EmbeddedClient(path, { events: options.events });
  return wrap(client);
}

/** A client wrapped in drizzle with Bindery's schema. */
export function wrap(client: Client): Database {
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
