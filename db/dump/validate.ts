import { getTableConfig, type SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { schema } from '../schema/index.ts';
import { isBlobValue, type DumpValue } from './format.ts';

/**
 * What is wrong with one dumped row (the column and the rule), or undefined. A restore runs it on
 * every row before anything is committed: a value the running code could not read
 * back (text where a number belongs, a key_points that is not JSON) used to be committed and then
 * break the search index rebuild, leaving a database neither empty nor usable.
 */
export type RowCheck = (table: string, row: Readonly<Record<string, DumpValue>>) => { field: string; rule: string } | undefined;

/** Text columns holding JSON that readers parse; '' means "not computed yet" where allowed. */
const JSON_TEXT: Record<string, { emptyAllowed: boolean }> = {
  'oauth_clients.redirect_uris': { emptyAllowed: false },
  'oauth_clients.metadata': { emptyAllowed: false },
  'versions.sections': { emptyAllowed: true },
  'versions.head_cut': { emptyAllowed: true },
};

const COLUMNS = new Map<string, Map<string, SQLiteColumn>>(
  Object.values(schema).map((t) => {
    const config = getTableConfig(t);
    return [config.name, new Map(config.columns.map((c) => [c.name, c]))];
  }),
);

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The column's rule a value breaks, or undefined: the types and constraints of db/schema/*.ts. */
function valueProblem(table: string, column: SQLiteColumn, v: DumpValue): string | undefined {
  if (v === null) return column.notNull ? 'must not be null' : undefined;
  switch (column.columnType) {
    case 'SQLiteInteger':
      return Number.isSafeInteger(v) ? undefined : 'must be a whole number';
    case 'SQLiteBoolean':
      return v === 0 || v === 1 ? undefined : 'must be 0 or 1';
    case 'SQLiteCustomColumn':
      return isBlobValue(v) ? undefined : 'must be a blob ({"blob": base64})';
    case 'SQLiteTextJson':
      return typeof v === 'string' && isJson(v) ? undefined : 'must be JSON text';
    case 'SQLiteText': {
      if (typeof v !== 'string') return 'must be text';
      const values = column.enumValues;
      if (values?.length && !values.includes(v)) return `must be one of ${values.map((x) => `"${x}"`).join(', ')}`;
      const json = JSON_TEXT[`${table}.${column.name}`];
      if (json && !(json.emptyAllowed && v === '') && !isJson(v)) return 'must be JSON text';
      if (!v.isWellFormed()) return 'must be valid Unicode text (it contains a lone UTF-16 surrogate)';
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Checks a row against this schema's column types, then against `domain` (the write rules the core
 * enforces, e.g. a version's field limits). Columns this schema lacks are left to the INSERT to refuse.
 */
export function rowProblem(
  table: string,
  columns: readonly string[],
  row: readonly DumpValue[],
  domain?: RowCheck,
): { field: string; rule: string } | undefined {
  const known = COLUMNS.get(table);
  if (known) {
    for (let i = 0; i < columns.length; i++) {
      const column = known.get(columns[i]!);
      const rule = column && valueProblem(table, column, row[i]!);
      if (rule) return { field: columns[i]!, rule };
    }
  }
  if (!domain) return undefined;
  const record: Record<string, DumpValue> = {};
  columns.forEach((c, i) => (record[c] = row[i]!));
  return domain(table, record);
}
