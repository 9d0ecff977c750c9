import { createClient } from '@libsql/client';
import { embeddedPath, openEmbedded, wrap, type Database, type DatabaseOptions } from './client-embedded.ts';

export { embeddedPath, type Database, type DatabaseOptions };

/**
 * Opens a libSQL database wrapped in drizzle. Embedded files and `:memory:` use Bindery's own client
 * (WAL, busy timeout and retries, a statement cache: see embedded-client.ts); remote URLs (Turso,
 * `libsql://`, `https://`) use `@libsql/client`.
 */
export function createDatabase(options: DatabaseOptions): Database {
  const path = embeddedPath(options.url);
  if (path !== undefined) return openEmbedded(path, options);
  return wrap(createClient({ url: options.url, authToken: options.authToken }));
}
