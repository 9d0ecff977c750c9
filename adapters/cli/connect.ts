// `bindery connect <client> [--write]`: prints the configuration an MCP client needs to start this
// Bindery (absolute paths to bun and the CLI, the database as an absolute BINDERY_DB_URL, the tool
// mode that suits the client), or to reach a remote one (`--url`, with `--key` or OAuth). `--write`
// merges it into the file the client reads: other servers and keys stay, a backup of the file is
// kept beside it, and a file that is not JSON is left alone with a message saying why.
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { parseConfig } from '../../core/config.ts';
import { parseCommand, usageError } from './args.ts';
import { writeTempFile } from './temp-file.ts';
import {
  CLIENTS,
  claudeMcpAdd,
  clientSpec,
  connectRefusal,
  localTarget,
  modeFor,
  mergeServer,
  remoteEndpoint,
  unmergeable,
  type ClientName,
  type Place,
  type Target,
} from '../../core/connect/clients.ts';

const USAGE = `usage: bindery connect <client> [--write] [--name <server>] [--db <url|path>] [--url <https://host/mcp> [--key <key>]]
  clients: ${CLIENTS.join(', ')}
  --write   merge the configuration into the client's own file (a backup is kept beside it)
  --name    the server's name in the client (default: bindery)
  --db      the database this server uses (default: BINDERY_DB_URL, else ./data/bindery.db), made absolute
  --url     a remote Bindery's /mcp endpoint instead of a local one; --key: its bearer key (without: OAuth)`;

const CLI = resolve(import.meta.dir, '..', 'cli.ts');

/** The database URL a client should be given: absolute, so it does not depend on the client's cwd. */
export function absoluteDbUrl(url: string, cwd: string): string {
  if (url === ':memory:' || url.startsWith('file::memory:')) return url;
  if (url.startsWith('file:')) {
    const path = url.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
    return `file:${isAbsolute(path) ? path : resolve(cwd, path)}`;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return url;
  return `file:${resolve(cwd, url)}`;
}

export async function main(args: string[], env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Promise<number> {
  const { values, positionals } = parseCommand('connect', USAGE, args, {
    write: { type: 'boolean' },
    name: { type: 'string', needs: 'a server name' },
    db: { type: 'string', needs: 'a database URL or path' },
    url: { type: 'string', needs: 'the remote /mcp URL' },
    key: { type: 'string', needs: 'a bearer key' },
  });
  const [client, ...extra] = positionals;
  const name = values.name ?? 'bindery';
  const refused = extra.length ? `unexpected argument "${extra[0]}"` : connectRefusal({ client, name, ...values });
  if (refused) usageError('connect', USAGE, refused);
  const spec = clientSpec(client!)!;

  const config = parseConfig(env);
  const mode = modeFor(client as ClientName, config.listChangedClients);
  let target: Target;
  if (values.url) {
    const remote = remoteEndpoint(values.url);
    if ('error' in remote) return usageError('connect', USAGE, remote.error);
    target = { kind: 'remote', url: remote.url, ...(values.key ? { key: values.key } : {}) };
  } else {
    const dbUrl = absoluteDbUrl(values.db ?? config.dbUrl, cwd);
    target = localTarget({ command: process.execPath, cli: CLI }, dbUrl, mode, config.dbAuthToken, env.BINDERY_USER);
  }

  const place: Place = {
    platform: process.platform,
    home: env.HOME || env.USERPROFILE || homedir(),
    cwd,
    appData: env.APPDATA,
    xdgConfigHome: env.XDG_CONFIG_HOME,
  };
  const file = spec.file(place);
  const entry = spec.entry(target);
  const say = (line: string) => process.stderr.write(`${line}\n`);

  if (target.kind === 'stdio') say(`${spec.label}: a local Bindery over stdio, database ${target.env.BINDERY_DB_URL}, tool mode ${mode}`);
  else say(`${spec.label}: the remote Bindery at ${target.url}, ${target.key ? 'with a bearer key' : 'signing in with OAuth (no --key)'}`);
  if (!values.write) {
    if (client === 'claude-code') {
      say('Run this (user-wide), or add the JSON below to .mcp.json in a project (or run with --write for that):');
      console.log(claudeMcpAdd(name, target));
      console.log('');
    } else {
      say(`${spec.label} reads ${file}; put this under "${spec.key}" (or run with --write to merge it there):`);
    }
    console.log(JSON.stringify({ [spec.key]: { [name]: entry } }, null, 2));
    return 0;
  }

  const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  const why = unmergeable(before, spec.key);
  if (why) {
    console.error(`bindery connect: left ${file} unchanged: ${why}. Fix it, or add the entry by hand (run without --write to print it).`);
    return 1;
  }
  const merged = mergeServer(before, spec.key, name, entry);
  if (!merged.changed) {
    say(`${file} already has server "${name}" exactly so; nothing changed`);
    return 0;
  }
  mkdirSync(dirname(file), { recursive: true });
  let backup = '';
  if (before !== undefined) {
    backup = `${file}.${new Date().toISOString().replace(/[:.]/g, '-')}.bak`;
    copyFileSync(file, backup);
  }
  renameSync(writeTempFile(dirname(file), basename(file), new TextEncoder().encode(merged.text)), file);
  say(
    `${merged.replaced ? 'replaced' : 'added'} server "${name}" in ${file}${backup ? ` (backup: ${backup})` : ''}; restart ${spec.label} to load it`,
  );
  console.log(file);
  return 0;
}
