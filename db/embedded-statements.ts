import Database from 'libsql';
import type { InArgs, InStatement, ResultSet, Row } from '@libsql/client';
// The same class as @libsql/client's, from its light embedded entry (no remote protocols loaded).
import { LibsqlError } from '@libsql/client/sqlite3';

// Statements on one libsql connection, shaped as `@libsql/client` shapes them (rows indexable by
// position and by column name, LibsqlError with SQLite's base code), for embedded-client.ts.

export type Conn = InstanceType<typeof Database>;
export type Statement = ReturnType<Conn['prepare']>;
/** A prepared statement with what running it needs to know, kept in the connection's cache. */
export interface Cached {
  stmt: Statement;
  returnsData: boolean;
  columns: string[];
  columnTypes: string[];
}

/** Plain data statements are cached; transaction control, pragmas and DDL are not. */
export const CACHEABLE = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i;
export const SCHEMA_CHANGE = /^\s*(CREATE|ALTER|DROP)\b/i;
export const READ_ONLY = /^\s*(SELECT|WITH)\b/i;

/** `exec` with errors shaped as `@libsql/client` shapes them. */
export function exec(db: Conn, sql: string): void {
  try {
    db.exec(sql);
  } catch (err) {
    throw mapError(err);
  }
}

export function sqlOf(stmt: InStatement): string {
  return typeof stmt === 'string' ? stmt : stmt.sql;
}

export function prepareOnce(db: Conn, sql: string): Cached {
  let stmt: Statement;
  try {
    stmt = db.prepare(sql);
  } catch (err) {
    throw mapError(err);
  }
  let returnsData = true;
  try {
    stmt.raw(true);
  } catch {
    // raw() throws for a statement that returns no rows
    returnsData = false;
  }
  const cols = returnsData ? (stmt.columns() as { name: string; type: string | null }[]) : [];
  return { stmt, returnsData, columns: cols.map((c) => c.name), columnTypes: cols.map((c) => c.type ?? '') };
}

function refreshColumns(c: Cached): void {
  const cols = c.stmt.columns() as { name: string; type: string | null }[];
  c.columns = cols.map((col) => col.name);
  c.columnTypes = cols.map((col) => col.type ?? '');
}

export function runStatement(c: Cached, stmt: InStatement): ResultSet {
  const args = typeof stmt === 'string' ? [] : toSqlArgs(stmt.args);
  try {
    c.stmt.safeIntegers(true);
    if (c.returnsData) {
      c.stmt.raw(true);
      const values = c.stmt.all(args) as unknown[][];
      // Another process changed the schema between our check and this step: SQLite re-prepared the
      // statement, so read its columns again.
      if (values.length > 0 && values[0]!.length !== c.columns.length) refreshColumns(c);
      const rows = values.map((r) => toRow(r, c.columns));
      return resultSet(c.columns, c.columnTypes, rows, 0, undefined);
    }
    const info = c.stmt.run(args) as { changes: number; lastInsertRowid: number | bigint };
    return resultSet([], [], [], info.changes, BigInt(info.lastInsertRowid));
  } catch (err) {
    throw mapError(err);
  }
}

function resultSet(
  columns: string[],
  columnTypes: string[],
  rows: Row[],
  rowsAffected: number,
  lastInsertRowid: bigint | undefined,
): ResultSet {
  return {
    columns,
    columnTypes,
    rows,
    rowsAffected,
    lastInsertRowid,
    toJSON: () => ({
      columns,
      columnTypes,
      rows: rows.map((r) => Array.from(r as ArrayLike<unknown>)),
      rowsAffected,
      lastInsertRowid: lastInsertRowid?.toString() ?? null,
    }),
  };
}

/** A row as `@libsql/client` shapes it: indexable by position (hidden) and by column name. */
function toRow(values: unknown[], columns: string[]): Row {
  const row: Record<string | number, unknown> = {};
  Object.defineProperty(row, 'length', { value: values.length });
  for (let i = 0; i < values.length; i++) {
    const value = fromSql(values[i]);
    Object.defineProperty(row, i, { value });
    const column = columns[i]!;
    if (!Object.hasOwn(row, column)) row[column] = value;
  }
  return row as unknown as Row;
}

function fromSql(value: unknown): unknown {
  if (typeof value === 'bigint') {
    if (value < Number.MIN_SAFE_INTEGER || value > Number.MAX_SAFE_INTEGER)
      throw new RangeError('Received integer which cannot be safely represented as a JavaScript number');
    return Number(value);
  }
  if (value instanceof Uint8Array) return value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength);
  return value;
}

function toSqlArgs(args: InArgs | undefined): unknown[] | Record<string, unknown> {
  if (args === undefined) return [];
  if (Array.isArray(args)) return args.map(toSql);
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) out[/^[@$:]/.test(name) ? name.slice(1) : name] = toSql(value);
  return out;
}

function toSql(value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new RangeError('Only finite numbers (not Infinity or NaN) can be passed as arguments');
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (value instanceof Date) return value.valueOf();
  if (value === undefined) throw new TypeError('undefined cannot be passed as argument to the database');
  return value;
}

const BASE_CODES: Record<number, string> = {
  1: 'SQLITE_ERROR',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  8: 'SQLITE_READONLY',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  17: 'SQLITE_SCHEMA',
  19: 'SQLITE_CONSTRAINT',
  26: 'SQLITE_NOTADB',
};

/** libsql's SqliteError → LibsqlError with the base code, as `@libsql/client` reports it. */
export function mapError(err: unknown): unknown {
  if (err instanceof LibsqlError) return err;
  const e = err as { code?: string; rawCode?: number; message?: string };
  if (e && typeof e === 'object' && typeof e.rawCode === 'number') {
    const base = BASE_CODES[e.rawCode & 0xff] ?? `SQLITE_UNKNOWN_${e.rawCode & 0xff}`;
    return new LibsqlError(String(e.message), base, e.code, e.rawCode, err instanceof Error ? err : undefined);
  }
  return err;
}

/** SQLite's code of a failed call (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_BUSY`, …), if it has one. */
export function errorCode(err: unknown): string | undefined {
  const e = mapError(err) as { extendedCode?: unknown; code?: unknown };
  const code = typeof e?.extendedCode === 'string' ? e.extendedCode : e?.code;
  return typeof code === 'string' && /^SQLITE_[A-Z_]{1,40}$/.test(code) ? code : undefined;
}
