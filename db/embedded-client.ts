import Database from 'libsql';
import { LibsqlError, type Client, type InArgs, type InStatement, type ResultSet, type Transaction, type TransactionMode } from '@libsql/client';
import { isBusy, sleepSync, withBusyRetry, type BusyPolicy, type DbEvents } from './busy.ts';
import { CACHEABLE, exec, mapError, prepareOnce, READ_ONLY, runStatement, SCHEMA_CHANGE, sqlOf, type Cached, type Conn, type Statement } from './embedded-statements.ts';

export interface EmbeddedClientOptions {
  /** Milliseconds SQLite itself waits on a locked file before answering SQLITE_BUSY (blocks the thread). */
  busyTimeoutMs?: number;
  /** How long busy operations are retried, asynchronously, after that. */
  retryForMs?: number;
  /** Prepared statements kept per connection. */
  statementCacheSize?: number;
  /** Told of busy retries and failed calls (metrics); never changes what a call does. */
  events?: DbEvents;
}

/** Counters a test (and `bindery measure`) can read: proof the cache and the retries are live. */
export interface EmbeddedStats {
  prepared: number;
  cacheHits: number;
  busyRetries: number;
  schemaResets: number;
}

/**
 * Bindery's own client for embedded libSQL files (and `:memory:`), speaking `@libsql/client`'s
 * `Client` interface so drizzle's libsql driver runs on it unchanged. Why our own rather than
 * `@libsql/client`'s: that client prepares every statement again on each call and reads its column
 * list twice (over half the CPU of a by-id read), and offers neither WAL nor a busy timeout nor
 * retries, so a CLI beside a running server failed with SQLITE_BUSY. Here:
 * - WAL and `busy_timeout` on every file connection; write batches take the write lock up front
 *   (BEGIN IMMEDIATE), so a transaction never fails half-way on a lock;
 * - SQLITE_BUSY (which SQLite returns without waiting in a few WAL cases) is retried with backoff;
 * - a per-connection LRU of prepared statements with their column lists, dropped whenever the
 *   schema changes — ours or another process's (`PRAGMA schema_version` is checked per call).
 * Nothing of `libsql` is patched: the cache lives on this object only.
 */
export class EmbeddedClient implements Client {
  closed = false;
  readonly protocol = 'file';
  readonly stats: EmbeddedStats = { prepared: 0, cacheHits: 0, busyRetries: 0, schemaResets: 0 };
  readonly #path: string;
  readonly #memory: boolean;
  readonly #policy: BusyPolicy;
  readonly #cacheSize: number;
  #db: Conn;
  #cache = new Map<string, Cached>();
  #schemaVersion: Statement;
  #touch: Statement;
  #knownSchema = -1;
  /** An interactive transaction on `:memory:` holds the only connection; other calls wait for it. */
  #held: Promise<void> | undefined;

  constructor(path: string, options: EmbeddedClientOptions = {}) {
    this.#path = path;
    this.#memory = path === ':memory:';
    this.#cacheSize = options.statementCacheSize ?? 256;
    this.#policy = {
      retryForMs: options.retryForMs ?? 15_000,
      onRetry: () => {
        this.stats.busyRetries++;
        options.events?.busyRetry?.();
      },
      onFailure: options.events?.error ? (err) => options.events!.error!(errorCode(err)) : undefined,
    };
    this.#db = this.#open(options.busyTimeoutMs ?? 50);
    this.#schemaVersion = this.#db.prepare('PRAGMA schema_version');
    this.#schemaVersion.raw(true);
    this.#touch = this.#db.prepare('SELECT 1 FROM sqlite_schema LIMIT 1');
    this.#touch.raw(true);
  }

  #open(busyTimeoutMs: number): Conn {
    const db = new Database(this.#path);
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    if (!this.#memory) {
      // Persistent in the file: readers never wait for a writer, and a writer never for readers.
      // Switching needs a moment without other connections' transactions: retried like any busy call.
      for (let i = 0; ; i++) {
        try {
          db.exec('PRAGMA journal_mode = WAL');
          break;
        } catch (err) {
          if (!isBusy(err) || i > 200) throw mapError(err);
          sleepSync(5);
        }
      }
    }
    return db;
  }

  async execute(stmtOrSql: InStatement | string, args?: InArgs): Promise<ResultSet> {
    const stmt: InStatement = typeof stmtOrSql === 'string' ? { sql: stmtOrSql, args: args ?? [] } : stmtOrSql;
    await this.#wait();
    return withBusyRetry(this.#policy, () => {
      this.#checkOpen();
      this.#checkSchema();
      return this.#run(stmt);
    });
  }

  async batch(stmts: Array<InStatement | [string, InArgs?]>, mode: TransactionMode = 'deferred'): Promise<ResultSet[]> {
    const list = stmts.map((s): InStatement => (Array.isArray(s) ? { sql: s[0], args: s[1] ?? [] } : s));
    await this.#wait();
    // Bindery's batches write: take the write lock first so no statement can meet a busy lock mid-way.
    const begin = mode === 'read' || list.every((s) => READ_ONLY.test(sqlOf(s))) ? 'BEGIN DEFERRED' : 'BEGIN IMMEDIATE';
    return withBusyRetry(this.#policy, () => {
      this.#checkOpen();
      this.#checkSchema();
      exec(this.#db, begin);
      try {
        const out = list.map((s) => this.#run(s));
        exec(this.#db, 'COMMIT');
        return out;
      } catch (err) {
        if (this.#db.inTransaction) exec(this.#db, 'ROLLBACK');
        throw err;
      }
    });
  }

  async migrate(stmts: InStatement[]): Promise<ResultSet[]> {
    this.#db.exec('PRAGMA foreign_keys = off');
    try {
      return await this.batch(stmts, 'write');
    } finally {
      this.#db.exec('PRAGMA foreign_keys = on');
    }
  }

  async executeMultiple(sql: string): Promise<void> {
    await this.#wait();
    await withBusyRetry(this.#policy, () => {
      this.#checkOpen();
      try {
        exec(this.#db, sql);
      } finally {
        // A script may change the schema.
        this.#resetCache();
      }
    });
  }

  async transaction(mode: TransactionMode = 'write'): Promise<Transaction> {
    await this.#wait();
    // A file gets a connection of its own for the transaction's life; `:memory:` has only one, so
    // every other call waits until the transaction ends.
    const db = this.#memory ? this.#db : this.#open(50);
    let release!: () => void;
    if (this.#memory) this.#held = new Promise<void>((r) => (release = r));
    const done = () => {
      if (this.#memory) {
        this.#held = undefined;
        release();
      } else if (db.open) db.close();
    };
    try {
      await withBusyRetry(this.#policy, () => exec(db, mode === 'write' ? 'BEGIN IMMEDIATE' : 'BEGIN DEFERRED'));
    } catch (err) {
      done();
      throw err;
    }
    return new EmbeddedTransaction(db, (s) => runStatement(prepareOnce(db, sqlOf(s)), s), done);
  }

  async sync(): Promise<never> {
    throw new LibsqlError('sync() is for embedded replicas; Bindery opens plain files', 'SYNC_NOT_SUPPORTED');
  }

  reconnect(): void {
    this.close();
    this.#db = this.#open(50);
    this.#schemaVersion = this.#db.prepare('PRAGMA schema_version');
    this.#schemaVersion.raw(true);
    this.#touch = this.#db.prepare('SELECT 1 FROM sqlite_schema LIMIT 1');
    this.#touch.raw(true);
    this.closed = false;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.#cache.clear();
    if (!this.#db.open) return;
    // Statements stay alive until garbage-collected, so SQLite may not see this as the last close and
    // leave the WAL un-checkpointed: fold it into the main file now, so a cleanly closed database is
    // whole in its one file (copyable as a backup). Best effort: another process may hold it.
    if (!this.#memory) {
      try {
        this.#db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      } catch {
        // busy: the next close, or SQLite's automatic checkpoints, will do it
      }
    }
    this.#db.close();
  }

  /** Prepared statements currently cached (for tests). */
  get cachedStatements(): number {
    return this.#cache.size;
  }

  async #wait(): Promise<void> {
    while (this.#held) await this.#held;
  }

  #checkOpen(): void {
    if (this.closed) throw new LibsqlError('The client is closed', 'CLIENT_CLOSED');
  }

  /** Drops cached statements when any connection (this process or another) changed the schema. */
  #checkSchema(): void {
    const [version] = this.#schemaVersion.get([]) as [number];
    if (version !== this.#knownSchema) {
      if (this.#knownSchema !== -1) this.stats.schemaResets++;
      // The cookie moved, but this connection parses statements against its cached schema until a
      // statement reads the file: make it reload now, or new statements would get old column lists.
      this.#touch.get([]);
      this.#resetCache();
      this.#knownSchema = version;
    }
  }

  #resetCache(): void {
    this.#cache.clear();
    this.#knownSchema = -1;
  }

  #run(stmt: InStatement): ResultSet {
    const sql = sqlOf(stmt);
    if (!CACHEABLE.test(sql)) {
      const result = runStatement(prepareOnce(this.#db, sql), stmt);
      if (SCHEMA_CHANGE.test(sql)) this.#resetCache();
      return result;
    }
    let cached = this.#cache.get(sql);
    if (cached) {
      this.stats.cacheHits++;
      this.#cache.delete(sql);
    } else {
      cached = prepareOnce(this.#db, sql);
      this.stats.prepared++;
      if (this.#cache.size >= this.#cacheSize) this.#cache.delete(this.#cache.keys().next().value!);
    }
    this.#cache.set(sql, cached);
    return runStatement(cached, stmt);
  }
}

/** An interactive transaction on one connection. */
class EmbeddedTransaction implements Transaction {
  closed = false;
  constructor(
    private readonly db: Conn,
    private readonly run: (s: InStatement) => ResultSet,
    private readonly done: () => void,
  ) {}

  async execute(stmt: InStatement): Promise<ResultSet> {
    this.#check();
    return this.run(stmt);
  }

  async batch(stmts: InStatement[]): Promise<ResultSet[]> {
    this.#check();
    return stmts.map((s) => this.run(s));
  }

  async executeMultiple(sql: string): Promise<void> {
    this.#check();
    this.db.exec(sql);
  }

  async rollback(): Promise<void> {
    if (this.closed) return;
    try {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
    } finally {
      this.#end();
    }
  }

  async commit(): Promise<void> {
    this.#check();
    try {
      this.db.exec('COMMIT');
    } finally {
      this.#end();
    }
  }

  close(): void {
    void this.rollback();
  }

  #check(): void {
    if (this.closed) throw new LibsqlError('The transaction is closed', 'TRANSACTION_CLOSED');
  }

  #end(): void {
    this.closed = true;
    this.done();
  }
}

/** SQLite's code of a failed call (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_BUSY`, …), if it has one. */
function errorCode(err: unknown): string | undefined {
  const e = mapError(err) as { extendedCode?: unknown; code?: unknown };
  const code = typeof e?.extendedCode === 'string' ? e.extendedCode : e?.code;
  return typeof code === 'string' && /^SQLITE_[A-Z_]{1,40}$/.test(code) ? code : undefined;
}
