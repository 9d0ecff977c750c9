import type { InStatement, ResultSet, Transaction } from '@libsql/client';
import { LibsqlError } from '@libsql/client/sqlite3';
import type { Conn } from './embedded-statements.ts';

/** An interactive transaction on one connection. */
export class EmbeddedTransaction implements Transaction {
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
