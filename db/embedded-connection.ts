import Database from 'libsql';
import { isBusy, sleepSync } from './busy.ts';
import { mapError, type Conn } from './embedded-statements.ts';

/**
 * Opens a connection to an embedded file (or `:memory:`) with `busy_timeout`, and WAL on a file:
 * readers never wait for a writer, and a writer never for readers. Switching to WAL needs a moment
 * without other connections' transactions, so it is retried like any busy call.
 */
export function openConnection(path: string, busyTimeoutMs: number): Conn {
  const db = new Database(path);
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  if (path === ':memory:') return db;
  for (let i = 0; ; i++) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return db;
    } catch (err) {
      if (!isBusy(err) || i > 200) throw mapError(err);
      sleepSync(5);
    }
  }
}

/**
 * Closes a connection. Statements stay alive until garbage-collected, so SQLite may not see this as
 * the last close and leave the WAL un-checkpointed: it is folded into the main file first, so a
 * cleanly closed database is whole in its one file (copyable as a backup). Best effort: another
 * process may hold it, and then the next close or SQLite's automatic checkpoints do it.
 */
export function closeConnection(db: Conn, path: string): void {
  if (!db.open) return;
  if (path !== ':memory:') {
    try {
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } catch {
      // busy: see above
    }
  }
  db.close();
}
