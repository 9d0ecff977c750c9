import Database from 'libsql';

/**
 * A prepared-statement cache for embedded libSQL. `@libsql/client` prepares every statement again
 * on each `execute` and reads its column list twice; on a by-id read that was over half the CPU time
 * of a whole HTTP request. Drizzle issues the same SQL text again and again, so each connection keeps
 * its last `limit` statements (least recently used leave first) and each statement its column list.
 *
 * Safe because `@libsql/client` runs a statement to completion (`all` / `run`) before the next one on
 * the same connection, and resets its modes (`raw`, `safeIntegers`) on every use. Schema changes
 * (CREATE / ALTER / DROP) empty the connection's cache. Installed once per process by createDatabase.
 */
export function installStatementCache(limit = 256): void {
  if (installed) return;
  installed = true;
  type Prepare = (this: object, sql: string, ...rest: unknown[]) => object;
  const proto = (Database as unknown as { prototype: { prepare: Prepare; exec: (this: object, sql: string) => unknown } }).prototype;
  const prepare = proto.prepare;
  const exec = proto.exec;
  const caches = new WeakMap<object, Map<string, object>>();
  // Multi-statement scripts (migrations, executeMultiple) may change the schema: start afresh.
  proto.exec = function (this: object, sql: string) {
    caches.delete(this);
    return exec.call(this, sql);
  };
  proto.prepare = function (this: object, sql: string, ...rest: unknown[]) {
    if (rest.length > 0 || !CACHEABLE.test(sql)) {
      if (SCHEMA_CHANGE.test(sql)) caches.delete(this);
      return prepare.call(this, sql, ...rest);
    }
    let cache = caches.get(this);
    if (!cache) caches.set(this, (cache = new Map()));
    let stmt = cache.get(sql);
    if (stmt) {
      cache.delete(sql);
    } else {
      stmt = prepare.call(this, sql);
      if (cache.size >= limit) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, stmt);
    return stmt;
  };

  // The Statement class is not exported: take it from a statement.
  const probe = new (Database as unknown as new (path: string) => { prepare: Prepare; close(): void })(':memory:');
  const statementProto = Object.getPrototypeOf(prepare.call(probe, 'SELECT 1')) as { columns: (this: object) => unknown };
  probe.close();
  const columns = statementProto.columns;
  const memo = new WeakMap<object, unknown>();
  statementProto.columns = function (this: object) {
    let cols = memo.get(this);
    if (cols === undefined) memo.set(this, (cols = columns.call(this)));
    return cols;
  };
}

let installed = false;
/** Plain data statements are cached; transaction control, pragmas and DDL are not. */
const CACHEABLE = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i;
const SCHEMA_CHANGE = /^\s*(CREATE|ALTER|DROP)\b/i;
