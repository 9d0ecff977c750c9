#!/usr/bin/env bun
// The `bindery` command: dispatches a subcommand to its module under adapters/cli/ (loaded on demand,
// so `bindery lock --check` never loads the HTTP server and vice versa). Each command parses its
// arguments strictly (./cli/args.ts); a usage error exits 2 with the command's usage line.
import { join } from 'node:path';
import { UsageError } from './cli/args.ts';

const USAGE = `usage: bindery <command>
  stdio                          MCP over stdio (same as bun run start)
  serve                          MCP over Streamable HTTP (same as bun run serve)
  connect <client> [--write]     print (or merge into the client's file) the configuration for
                                 claude-desktop, claude-code, cursor, vscode, windsurf, gemini-cli
  migrate [--print-sql [--since <tag>]]  create or upgrade the database (BINDERY_DB_URL); --print-sql: SQL for D1
  import <dir> [--space <slug>]  every .md file under <dir> becomes a binding (in that space)
  export <dir> [--space <slug>]  every binding becomes <dir>/<space>/<slug>.md (front matter + content)
  sync <dir> [--space <slug>] [--watch]  keep a space and a folder of Markdown in step, both ways
  measure [--json] [-- <cmd> …]  token cost of tool definitions (Bindery's, or any stdio MCP server's)
  lock [--check]                 write or check bindery.lock.json (tool surface and token risk)
  keys create --user <handle> [--print-sql]  print a new API key (stored hashed); --print-sql: SQL for D1
  keys revoke <key-id>           revoke a key
  login-link --user <handle>     print a one-time sign-in link for the web app
  help set <topic> <file> [--new] replace a help topic from a Markdown file (--new: add one)
  help list | help delete <topic> list topics; undo a help set
  dump <file>|- [--sql]          logical dump of the database (--sql: INSERTs for Cloudflare D1)
  restore <file>|-               load a dump into an empty database (BINDERY_DB_URL)
  embed                          fill missing embedding vectors (only with BINDERY_EMBEDDINGS_URL)`;

const COMMANDS = [
  'stdio',
  'serve',
  'connect',
  'migrate',
  'import',
  'export',
  'sync',
  'measure',
  'lock',
  'keys',
  'login-link',
  'help',
  'dump',
  'restore',
  'embed',
];

const [command, ...rest] = process.argv.slice(2);
if (!command || !COMMANDS.includes(command)) {
  const asked = command && command !== '--help' && command !== '-h';
  console.error(asked ? `bindery: unknown command "${command}"\n${USAGE}` : USAGE);
  process.exit(asked ? 2 : 0);
}
// `bindery stdio` runs the pre-built server (dist/stdio/, built at install: one file and its bytecode)
// while it matches the sources beside it (./stdio-bundle.ts); otherwise the sources, as below.
const bundle =
  command === 'stdio' && rest.length === 0 ? (await import('./stdio-bundle.ts')).freshStdioBundle(join(import.meta.dir, '..')) : undefined;
if (bundle) require(bundle);
// The stdio server's tokenizer starts on a worker thread before its modules load (./tokenizer-thread.ts).
else if (command === 'stdio') (await import('./tokenizer-thread.ts')).startTokenizerEarly(process.env);
if (!bundle) await runCommand(command, rest);

/** Runs `command`'s module, exiting with its code (-1: it keeps running, as the servers do). */
async function runCommand(command: string, rest: string[]): Promise<void> {
  try {
    const mod = (await import(`./cli/${command}.ts`)) as { main(args: string[]): Promise<number> };
    const code = await mod.main(rest);
    if (code !== -1) process.exit(code);
  } catch (err) {
    if (err instanceof UsageError) {
      (err.exitCode === 0 ? console.log : console.error)(err.message);
      process.exit(err.exitCode);
    }
    console.error(`bindery ${command}: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
