import { createHash } from 'node:crypto';
import {
  DUMP_FORMAT,
  DUMP_TABLES,
  DumpError,
  isBlobValue,
  SESSION_TABLES,
  type DumpHeader,
  type DumpTrailer,
  type DumpValue,
} from './format.ts';
import { rowProblem, type RowCheck } from './validate.ts';

export type DumpEvent =
  | { kind: 'header'; header: DumpHeader }
  | { kind: 'table'; table: string; columns: string[] }
  | { kind: 'rows'; table: string; columns: string[]; rows: DumpValue[][] }
  | { kind: 'end'; trailer: DumpTrailer };

/** Splits a byte or text stream into lines (without their newline); the last may lack one. */
export async function* linesOf(chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let rest = '';
  for await (const chunk of chunks) {
    rest += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let at = rest.indexOf('\n');
    if (at < 0) continue;
    let from = 0;
    for (; at >= 0; at = rest.indexOf('\n', from)) {
      yield rest.slice(from, at);
      from = at + 1;
    }
    rest = rest.slice(from);
  }
  rest += decoder.decode();
  if (rest) yield rest;
}

/** Rows handed on per event: enough to fill a write batch. */
const ROWS_PER_EVENT = 200;

/**
 * Reads and checks a dump line by line. Events come as they are read, so a caller writing them must
 * treat nothing as final until the `end` event: only then are the row counts and the SHA-256 known
 * to match (a truncated or damaged file throws a DumpError before `end`). `knownSchemas` are the
 * migration tags this Bindery has; a dump of a later schema is refused at the header. Every row is
 * checked against the schema's column types and `check` (a DumpError names its line, table and field).
 */
export async function* readDump(
  lines: AsyncIterable<string>,
  knownSchemas: readonly string[],
  check?: RowCheck,
): AsyncGenerator<DumpEvent> {
  const hash = createHash('sha256');
  const order = [...DUMP_TABLES, ...SESSION_TABLES] as readonly string[];
  const counts: Record<string, number> = {};
  let lineNo = 0;
  let header: DumpHeader | undefined;
  let table: { name: string; columns: string[]; index: number } | undefined;
  let pending: DumpValue[][] = [];
  let trailer: DumpTrailer | undefined;
  const flush = (): DumpEvent | undefined => {
    if (!table || !pending.length) return undefined;
    const ev: DumpEvent = { kind: 'rows', table: table.name, columns: table.columns, rows: pending };
    pending = [];
    return ev;
  };
  for await (const line of lines) {
    lineNo++;
    if (trailer) {
      if (line.trim() === '') continue;
      throw new DumpError(`corrupt dump: content after the trailer (line ${lineNo})`);
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new DumpError(
        lineNo === 1
          ? 'not a Bindery dump (the first line is not a JSON header)'
          : `corrupt dump: line ${lineNo} is not valid JSON (truncated or damaged file)`,
      );
    }
    if (lineNo === 1) {
      header = checkHeader(value, knownSchemas);
      hash.update(`${line}\n`);
      yield { kind: 'header', header };
      continue;
    }
    if (Array.isArray(value)) {
      if (!table) throw new DumpError(`corrupt dump: a row before any table (line ${lineNo})`);
      if (
        value.length !== table.columns.length ||
        !value.every((v) => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || isBlobValue(v))
      ) {
        throw new DumpError(
          `corrupt dump: line ${lineNo} is not a row of ${table.name} (${table.columns.length} text, number, blob or null values)`,
        );
      }
      const problem = rowProblem(table.name, table.columns, value as DumpValue[], check);
      if (problem)
        throw new DumpError(
          `bad value at line ${lineNo} (${table.name} row ${counts[table.name]! + 1}): ${table.name}.${problem.field} ${problem.rule}`,
        );
      hash.update(`${line}\n`);
      counts[table.name]!++;
      pending.push(value as DumpValue[]);
      if (pending.length >= ROWS_PER_EVENT) yield flush()!;
      continue;
    }
    const obj = value as Record<string, unknown>;
    if (obj && typeof obj.table === 'string') {
      const index = order.indexOf(obj.table);
      if (index < 0 || (table && index <= table.index))
        throw new DumpError(`corrupt dump: unexpected table "${obj.table}" at line ${lineNo}`);
      if (!Array.isArray(obj.columns) || !obj.columns.length || !obj.columns.every((c) => typeof c === 'string'))
        throw new DumpError(`corrupt dump: table ${obj.table} without its column list (line ${lineNo})`);
      const ev = flush();
      if (ev) yield ev;
      hash.update(`${line}\n`);
      table = { name: obj.table, columns: obj.columns as string[], index };
      counts[obj.table] = 0;
      yield { kind: 'table', table: obj.table, columns: table.columns };
      continue;
    }
    if (obj && obj.end === true) {
      trailer = obj as unknown as DumpTrailer;
      continue;
    }
    throw new DumpError(`corrupt dump: line ${lineNo} is neither a table, a row nor the trailer`);
  }
  if (!header) throw new DumpError('empty file: not a Bindery dump');
  if (!trailer) throw new DumpError(`truncated dump: it ends at line ${lineNo} without its trailer`);
  if (JSON.stringify(trailer.rows) !== JSON.stringify(counts)) {
    throw new DumpError(`corrupt dump: the trailer counts ${JSON.stringify(trailer.rows)} but the file holds ${JSON.stringify(counts)}`);
  }
  if (trailer.sha256 !== hash.digest('hex'))
    throw new DumpError('corrupt dump: its SHA-256 does not match the trailer (the file was changed or damaged)');
  const ev = flush();
  if (ev) yield ev;
  yield { kind: 'end', trailer };
}

function checkHeader(value: unknown, knownSchemas: readonly string[]): DumpHeader {
  const h = value as Partial<DumpHeader> | null;
  if (!h || h.bindery !== 'dump' || typeof h.format !== 'number' || typeof h.schema !== 'string')
    throw new DumpError('not a Bindery dump (no bindery dump header)');
  if (h.format > DUMP_FORMAT)
    throw new DumpError(
      `the dump is format ${h.format}, written by a newer Bindery; this one reads format ${DUMP_FORMAT} and earlier: upgrade Bindery to restore it`,
    );
  if (!knownSchemas.includes(h.schema))
    throw new DumpError(
      `the dump's schema ${h.schema} is newer than this Bindery's (${knownSchemas[knownSchemas.length - 1]}): upgrade Bindery to restore it`,
    );
  return h as DumpHeader;
}
