import { createClient } from '@libsql/client/web';
import { drizzle } from 'drizzle-orm/libsql/web';
import { drizzle as drizzleD1 } from 'drizzle-orm/d1';
import { schema } from './schema/index.ts';
import type { BinderyDb } from './types.ts';
import type { Database, DatabaseOptions } from './client.ts';

/**
 * A remote libSQL database (Turso: `libsql://…`, `https://…`) over HTTP with no native code, for the
 * edge (Workers, Deno Deploy). `file:` URLs need the native client in db/client.ts.
 */
export function createWebDatabase(options: DatabaseOptions): Database {
  if (!/^(libsql|https?|wss?):\/\//.test(options.url)) {
    throw new Error(
      `BINDERY_DB_URL: the edge handler needs a libsql:// or https:// URL (got "${options.url.replace(/\?.*$/, '')}"); use a D1 binding or pass a database to createFetchHandler`,
    );
  }
  const client = createClient({ url: options.url, authToken: options.authToken });
  const db: BinderyDb = drizzle(client, { schema });
  return { db, client: client as unknown as Database['client'], close: () => client.close() };
}

/** The part of Cloudflare's D1Database that drizzle's D1 driver uses. */
export type D1Like = Parameters<typeof drizzleD1>[0];

interface BatchItem {
  _prepare(): { getQuery(): { sql: string; params: unknown[] }; mapResult(result: unknown, isFromBatch: boolean): unknown };
}

/**
 * A Cloudflare D1 binding as Bindery's database. D1's drizzle database has the same query and
 * `batch` surface as libSQL's, which is what the store uses.
 */
export function createD1Database(binding: D1Like): BinderyDb {
  const db = drizzleD1(binding, { schema });
  // drizzle-orm 0.45's D1 batch cannot bind raw `db.run(sql`…${param}`)` items (it reads a
  // prepared `stmt` they do not have), and the store batches such items (the FTS rows, the
  // migration ledger). Every item is prepared on the binding from its SQL and params instead.
  const session = (db as unknown as { session: { batch(items: BatchItem[]): Promise<unknown[]> } }).session;
  session.batch = async (items) => {
    const prepared = items.map((item) => item._prepare());
    const statements = prepared.map((p) => {
      const q = p.getQuery();
      return binding.prepare(q.sql).bind(...q.params);
    });
    const results = await binding.batch(statements);
    return results.map((r: unknown, i: number) => prepared[i]!.mapResult(r, true));
  };
  return db as unknown as BinderyDb;
}
