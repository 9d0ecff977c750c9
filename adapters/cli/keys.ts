// `bindery keys create --user <handle> [--label <text>]` prints a new API key once (only its SHA-256
// is stored); `bindery keys revoke <key-id>`; `bindery keys list`. Works on any BINDERY_DB_URL.
// `keys create --user <handle> --print-sql` opens no database: the key goes to stderr, the SQL that
// stores its hash (and the user, if new) to stdout, for D1 (`wrangler d1 execute <db> --file -`).
import { createApiKey, mintApiKey } from '../../core/http/auth.ts';
import { newId } from '../../core/ids.ts';
import { listKeys, revokeKey } from '../../core/services/api-keys.ts';
import { ensureCaller, personalSpaceSlugs } from '../../core/services/prepare.ts';
import { apiKeyScript } from '../../db/sql-script.ts';
import { openRuntime } from '../runtime.ts';
import { parseCommand, usageError } from './args.ts';

const USAGE = 'usage: bindery keys create --user <handle> [--label <text>] [--print-sql] | keys revoke <key-id> | keys list';

/** Options each subcommand takes (any other is a usage error) and how many arguments follow it. */
const SUBCOMMANDS = {
  create: { options: ['user', 'label', 'print-sql'], args: 0 },
  revoke: { options: [], args: 1 },
  list: { options: [], args: 0 },
} as const;

export async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand('keys', USAGE, args, {
    user: { type: 'string', needs: 'a handle' },
    label: { type: 'string', needs: 'a text' },
    'print-sql': { type: 'boolean' },
  });
  const [sub, ...rest] = positionals;
  if (sub !== 'create' && sub !== 'revoke' && sub !== 'list')
    return usageError('keys', USAGE, sub ? `unknown subcommand "${sub}"` : undefined);
  const allowed: readonly string[] = SUBCOMMANDS[sub].options;
  const stray = Object.keys(values).find((name) => !allowed.includes(name));
  if (stray) usageError(`keys ${sub}`, USAGE, `--${stray} does not go with ${sub}`);
  if (rest.length !== SUBCOMMANDS[sub].args)
    usageError(`keys ${sub}`, USAGE, rest.length ? `unexpected argument "${rest[SUBCOMMANDS[sub].args]}"` : 'give the key id (key_…)');
  const handle = values.user;
  if (sub === 'create' && (!handle || !/^[a-z0-9][a-z0-9-]{0,39}$/.test(handle)))
    usageError('keys create', USAGE, '--user must be a handle (lowercase letters, digits, -)');
  if (sub === 'create' && values['print-sql']) {
    const { id, key, keyHash } = await mintApiKey();
    const script = apiKeyScript({
      handle: handle!,
      slugs: personalSpaceSlugs(handle!),
      userId: newId('usr'),
      spaceId: newId('spc'),
      keyId: id,
      keyHash,
      label: values.label ?? null,
      now: Date.now(),
    });
    process.stdout.write(script);
    console.error(`key ${id} for @${handle}, shown only once (the SQL on stdout stores its SHA-256):\n${key}`);
    return 0;
  }
  const { deps, database } = await openRuntime();
  try {
    if (sub === 'create') {
      const caller = await ensureCaller(deps, handle!);
      const { id, key } = await createApiKey(deps.db, caller.id, deps.now(), values.label);
      console.error(`created ${id} for @${caller.handle}; the key below is shown only once:`);
      console.log(key);
      return 0;
    }
    if (sub === 'revoke') {
      const done = await revokeKey(deps.db, rest[0]!, deps.now());
      console.error(done ? `revoked ${rest[0]}` : `no live key ${rest[0]}`);
      return done ? 0 : 1;
    }
    for (const k of await listKeys(deps.db)) {
      console.log(
        `${k.id}\t@${k.handle}\t${new Date(k.createdAt).toISOString()}\t${k.revokedAt ? 'revoked' : 'live'}${k.label ? `\t${k.label}` : ''}`,
      );
    }
    return 0;
  } finally {
    database.close();
  }
}
