#!/usr/bin/env bun
// The `bindery` command: dispatches a subcommand to its module under adapters/cli/ (loaded on demand,
// so `bindery lock --check` never loads the HTTP server and vice versa).
const USAGE = `usage: bindery <command>
  stdio                          MCP over stdio (same as bun run start)
  serve                          MCP over Streamable HTTP (same as bun run serve)
  migrate                        create or upgrade the database (BINDERY_DB_URL)
  import <dir>                   every .md file under <dir> becomes a binding
  measure [--json] [-- <cmd> …]  token cost of tool definitions (Bindery's, or any stdio MCP server's)
  lock [--check]                 write or check bindery.lock.json (tool surface and token risk)
  keys create --user <handle>    print a new API key for the HTTP server (stored hashed)
  keys revoke <key-id>           revoke a key
  help set <topic> <file>        replace a help topic from a Markdown file`;

const commands: Record<string, () => Promise<{ main(args: string[]): Promise<number> }>> = {
  stdio: () => import('./cli/stdio'),
  serve: () => import('./cli/serve'),
  migrate: () => import('./cli/migrate'),
  import: () => import('./cli/import'),
  measure: () => import('./cli/measure'),
  lock: () => import('./cli/lock'),
  keys: () => import('./cli/keys'),
  help: () => import('./cli/help'),
};

const [name, ...rest] = process.argv.slice(2);
const load = name ? commands[name] : undefined;
if (!load) {
  console.error(name && name !== '--help' && name !== '-h' ? `bindery: unknown command "${name}"\n${USAGE}` : USAGE);
  process.exit(name && name !== '--help' && name !== '-h' ? 2 : 0);
}
try {
  const code = await (await load()).main(rest);
  if (code !== -1) process.exit(code);
} catch (err) {
  console.error(`bindery ${name}: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
