// `bindery keys create --user <handle> [--label <text>]` prints a new API key once (only its SHA-256
// is stored); `bindery keys revoke <key-id>`; `bindery keys list`. Works on any BINDERY_DB_URL.
import { createApiKey } from '../../core/http/auth.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { listApiKeys, revokeApiKey } from '../../db/store/api-keys.ts';
import { openRuntime } from '../runtime.ts';

const USAGE = 'usage: bindery keys create --user <handle> [--label <text>] | keys revoke <key-id> | keys list';

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

export async function main(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'create' && sub !== 'revoke' && sub !== 'list') {
    console.error(USAGE);
    return 2;
  }
  const handle = flag(rest, '--user');
  if (sub === 'create' && (!handle || !/^[a-z0-9][a-z0-9-]{0,39}$/.test(handle))) {
    console.error(`bindery keys create: --user must be a handle (lowercase letters, digits, -)\n${USAGE}`);
    return 2;
  }
  if (sub === 'revoke' && !rest[0]) {
    console.error(USAGE);
    return 2;
  }
  const { deps, database } = await openRuntime();
  try {
    if (sub === 'create') {
      const caller = await ensureCaller(deps, handle!);
      const { id, key } = await createApiKey(deps.db, caller.id, deps.now(), flag(rest, '--label'));
      console.error(`created ${id} for @${caller.handle}; the key below is shown only once:`);
      console.log(key);
      return 0;
    }
    if (sub === 'revoke') {
      const done = await revokeApiKey(deps.db, rest[0]!, deps.now());
      console.error(done ? `revoked ${rest[0]}` : `no live key ${rest[0]}`);
      return done ? 0 : 1;
    }
    for (const k of await listApiKeys(deps.db)) {
      console.log(`${k.id}\t@${k.handle}\t${new Date(k.createdAt).toISOString()}\t${k.revokedAt ? 'revoked' : 'live'}${k.label ? `\t${k.label}` : ''}`);
    }
    return 0;
  } finally {
    database.close();
  }
}
