import type { Client, InArgs, InStatement, ResultSet, Transaction, TransactionMode } from '@libsql/client';
import { LibsqlError } from '@libsql/client/sqlite3';
import { withBusyRetry, type BusyPolicy, type DbEvents } from './busy.ts';
import { StatementCache } from './embedded-cache.ts';
import { closeConnection, openConnection } from './embedded-connection.ts';
import { errorCode, exec, prepareOnce, READ_ONLY, runStatement, sqlOf, type Conn } from './embedded-statements.ts';
import { EmbeddedTransaction } from './embedded-transaction.ts';

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
 * Nothing of `libsql` is patched: the cache lives on this object only. Opening and closing a
 * connection are in ./embedded-connection.ts, the statement cache in ./embedded-cache.ts, interactive
 * transactions in ./embedded-transaction.ts.
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
  #cache: StatementCache;
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
    this.#db = openConnection(path, options.busyTimeoutMs ?? 50);
    this.#cache = new StatementCache(this.#db, this.#cacheSize, this.stats);
  }

  async execute(stmtOrSql: InStatement | string, args?: InArgs): Promise<ResultSet> {
    const stmt: InStatement = typeof stmtOrSql === 'string' ? { sql: stmtOrSql, args: args ?? [] } : stmtOrSql;
    await this.#wait();
    return withBusyRetry(this.#policy, () => {
      this.#checkOpen();
      this.#cache.checkSchema();
      return this.#cache.run(stmt);
    });
  }

  async batch(stmts: Array<InStatement | [string, InArgs?]>, mode: TransactionMode = 'deferred'): Promise<ResultSet[]> {
    const list = stmts.map((s): InStatement => (Array.isArray(s) ? { sql: s[0], args: s[1] ?? [] } : s));
    await this.#wait();
    // Bindery's batches write: take the write lock first so no statement can meet a busy lock mid-way.
    const begin = mode === 'read' || list.every((s) => READ_ONLY.test(sqlOf(s))) ? 'BEGIN DEFERRED' : 'BEGIN IMMEDIATE';
    return withBusyRetry(this.#policy, () => {
      this.#checkOpen();
      this.#cache.checkSchema();
      exec(this.#db, begin);
      try {
        const out = list.map((s) => this.#cache.run(s));
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
        this.#cache.reset();
      }
    });
  }

  async transaction(mode: TransactionMode = 'write'): Promise<Transaction> {
    await this.#wait();
    // A file gets a connection of its own for the transaction's life; `:memory:` has only one, so
    // every other call waits until the transaction ends.
    const db = this.#memory ? this.#db : openConnection(this.#path, 50);
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
    this.#db = openConnection(this.#path, 50);
    this.#cache = new StatementCache(this.#db, this.#cacheSize, this.stats);
    this.closed = false;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.#cache.reset();
    closeConnection(this.#db, this.#path);
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
}
