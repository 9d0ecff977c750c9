// SQL text for databases Bindery cannot reach itself (Cloudflare D1): `bindery migrate --print-sql`
// and `bindery keys create --print-sql` print it, and D1's own tooling applies it
// (`wrangler d1 execute <db> --remote --file …`). Values are inlined as SQL literals: D1 files take
// no parameters. Each statement ends with `;` and a newline.
import { migrations } from './migrations/bundle.ts';
import { LEDGER } from './migrate.ts';
import { BUILT_KEY } from './store/fts.ts';

/** A value as an SQLite literal (strings quoted with '' doubled; null as NULL). */
export function sqlLiteral(value: string | number | null): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not an SQL number: ${value}`);
    return String(value);
  }
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * Every migration after `since` (all of them, for a new database, when undefined), each followed by
 * its row in the migration ledger, so GET /healthz reports them current. Throws on an unknown `since`.
 */
export function migrationScript(since?: string, now = Date.now()): string {
  const start = since === undefined ? 0 : migrations.findIndex((m) => m.tag === since) + 1;
  if (start === 0 && since !== undefined)
    throw new Error(`--since: no migration "${since}" (known: ${migrations.map((m) => m.tag).join(', ')})`);
  const out = [
    `-- Bindery schema: migrations ${start < migrations.length ? `${migrations[start]!.tag} … ${migrations.at(-1)!.tag}` : '(none pending)'}`,
  ];
  out.push(`CREATE TABLE IF NOT EXISTS ${LEDGER} (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL);`);
  for (const m of migrations.slice(start)) {
    out.push(`-- ${m.tag}`);
    for (const s of m.statements) out.push(s.trim().endsWith(';') ? s.trim() : `${s.trim()};`);
    out.push(`INSERT INTO ${LEDGER} (tag, applied_at) VALUES (${sqlLiteral(m.tag)}, ${now});`);
  }
  // A new database has nothing to re-index: mark the search index built, as migrate() would.
  if (since === undefined)
    out.push(`INSERT INTO settings (key, value) VALUES (${sqlLiteral(BUILT_KEY)}, '1') ON CONFLICT (key) DO NOTHING;`);
  return `${out.join('\n')}\n`;
}

export interface ApiKeyScript {
  handle: string;
  /** Personal-space slugs to try in order (the first one free is taken), as ensureCaller does. */
  slugs: string[];
  userId: string;
  spaceId: string;
  keyId: string;
  keyHash: string;
  label: string | null;
  now: number;
}

/**
 * The user (if new) with a personal space, and an API key row holding only the key's hash. The same
 * statements as db/store/users.ts `ensureUser` and `insertApiKey`, as literal SQL.
 */
export function apiKeyScript(k: ApiKeyScript): string {
  const handle = sqlLiteral(k.handle);
  return [
    `-- API key ${k.keyId} for @${k.handle} (only its SHA-256 is stored)`,
    `INSERT INTO users (id, handle, created_at) VALUES (${sqlLiteral(k.userId)}, ${handle}, ${k.now}) ON CONFLICT (handle) DO NOTHING;`,
    `INSERT INTO spaces (id, slug, name, visibility, owner_id, personal, created_at) SELECT ${sqlLiteral(k.spaceId)}, c.value, ${sqlLiteral(`${k.handle}'s space`)}, 'private', u.id, 1, ${k.now} FROM users u, json_each(${sqlLiteral(JSON.stringify(k.slugs))}) c WHERE u.handle = ${handle} AND NOT EXISTS (SELECT 1 FROM spaces p WHERE p.owner_id = u.id AND p.personal = 1) AND NOT EXISTS (SELECT 1 FROM spaces t WHERE t.slug = c.value) ORDER BY c.key LIMIT 1;`,
    `INSERT INTO api_keys (id, user_id, key_hash, label, created_at) SELECT ${sqlLiteral(k.keyId)}, u.id, ${sqlLiteral(k.keyHash)}, ${sqlLiteral(k.label)}, ${k.now} FROM users u WHERE u.handle = ${handle};`,
    '',
  ].join('\n');
}
