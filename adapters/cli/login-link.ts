// `bindery login-link --user <handle>` prints a one-time sign-in URL for the web app (valid 15 minutes,
// stored hashed). The user is created on first use, as `keys create` does. Works on any BINDERY_DB_URL;
// the URL is built from BINDERY_PUBLIC_URL, so set it as the server has it.
import { ensureCaller } from '../../core/services/prepare.ts';
import { createLoginLink } from '../../core/web/session.ts';
import { openRuntime } from '../runtime.ts';
import { parseCommand, usageError } from './args.ts';

const USAGE = 'usage: bindery login-link --user <handle>';

export async function main(args: string[]): Promise<number> {
  const { values } = parseCommand('login-link', USAGE, args, { user: { type: 'string', needs: 'a handle' } }, { positionals: false });
  const handle = values.user;
  if (!handle || !/^[a-z0-9][a-z0-9-]{0,39}$/.test(handle))
    usageError('login-link', USAGE, '--user must be a handle (lowercase letters, digits, -)');
  const { deps, database } = await openRuntime();
  try {
    const caller = await ensureCaller(deps, handle);
    const link = await createLoginLink(deps, caller.id);
    console.error(
      `one-time sign-in link for @${caller.handle}, valid until ${new Date(link.expiresAt).toISOString()}; open it and press "Sign in":`,
    );
    console.log(link.url);
    return 0;
  } finally {
    database.close();
  }
}
