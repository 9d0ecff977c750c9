import type { InStatement, ResultSet } from '@libsql/client';
import {
  CACHEABLE,
  prepareOnce,
  runStatement,
  SCHEMA_CHANGE,
  sqlOf,
  type Cached,
  type Conn,
  type Statement,
} from './embedded-statements.ts';

/** What the cache counts (shared with the client's stats object). */
export interface CacheCounters {
  prepared: number;
  cacheHits: number;
  schemaResets: number;
}

/**
 * One connection's prepared statements with their column lists, least recently used dropped first,
 * and all dropped whenever the schema changes, ours or another process's: `PRAGMA schema_version` is
 * read before each call.
 */
export class StatementCache {
  readonly #db: Conn;
  readonly #size: number;
  readonly #counters: CacheCounters;
  readonly #cache = new Map<string, Cached>();
  readonly #schemaVersion: Statement;
  readonly #touch: Statement;
  #knownSchema = -1;

  constructor(db: Conn, size: number, counters: CacheCounters) {
    this.#db = db;
    this.#size = size;
    this.#counters = counters;
    this.#schemaVersion = db.prepare('PRAGMA schema_version');
    this.#schemaVersion.raw(true);
    this.#touch = db.prepare('SELECT 1 FROM sqlite_schema LIMIT 1');
    this.#touch.raw(true);
  }

  get size(): number {
    return this.#cache.size;
  }

  /** Drops cached statements when any connection (this process or another) changed the schema. */
  checkSchema(): void {
    const [version] = this.#schemaVersion.get([]) as [number];
    if (version !== this.#knownSchema) {
      if (this.#knownSchema !== -1) this.#counters.schemaResets++;
      // The cookie moved, but this connection parses statements against its cached schema until a
      // statement reads the file: make it reload now, or new statements would get old column lists.
      this.#touch.get([]);
      this.reset();
      this.#knownSchema = version;
    }
  }

  reset(): void {
    this.#cache.clear();
    this.#knownSchema = -1;
  }

  /** Runs a statement, from the cache when it is a cacheable one. */
  run(stmt: InStatement): ResultSet {
    const sql = sqlOf(stmt);
    if (!CACHEABLE.test(sql)) {
      const result = runStatement(prepareOnce(this.#db, sql), stmt);
      if (SCHEMA_CHANGE.test(sql)) this.reset();
      return result;
    }
    let cached = this.#cache.get(sql);
    if (cached) {
      this.#counters.cacheHits++;
      this.#cache.delete(sql);
    } else {
      cached = prepareOnce(this.#db, sql);
      this.#counters.prepared++;
      if (this.#cache.size >= this.#size) this.#cache.delete(this.#cache.keys().next().value!);
    }
    this.#cache.set(sql, cached);
    return runStatement(cached, stmt);
  }
}
