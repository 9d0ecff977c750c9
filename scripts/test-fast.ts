// The fast loop (`bun run test:fast`): every test file except those that start another process, a
// browser, a runtime or a package install. Those run in the full suite (`bun test`, which CI runs
// through .ci/run). A test file is fast unless it is listed below with its reason; new files are fast
// by default, and tests/core/test-loops.test.ts fails when a fast file starts spawning.
// Property tests run a tenth of their cases here (BINDERY_PROPERTY_RUNS=10, tests/property.ts) unless
// BINDERY_PROPERTY_RUNS is set; test files run in parallel, one worker per core. Extra arguments go to
// `bun test` (e.g. `bun run test:fast -t budget`). docs/testing.md.
import { Glob } from 'bun';

/** Folders (ending in '/') and files of the full suite only, each with what makes it slow. */
export const SLOW_TESTS: Readonly<Record<string, string>> = {
  'tests/runtime/': 'npm and bun installs into scratch projects, Deno, workerd (miniflare)',
  'tests/clients/': 'real MCP clients (inspector, AI SDK, conformance) against spawned servers',
  'tests/adapters/cli-args.test.ts': 'spawns the CLI',
  'tests/adapters/connect.test.ts': 'runs the CLI and a stdio server from the configuration it wrote',
  'tests/adapters/stdio-terminal.test.ts': 'starts the stdio server on a pseudo-terminal',
  'tests/adapters/startup-imports.test.ts': 'imports the stdio server in a fresh process',
  'tests/adapters/tokenizer-thread.test.ts': 'starts worker threads and a stdio server',
  'tests/adapters/stdio-bundle.test.ts': 'builds the stdio bundle and spawns it and the sources',
  'tests/bench/loop.test.ts': 'runs the loop harness commands as processes',
  'tests/db/dump-validate.test.ts': 'runs the CLI and a server on a restored database',
  'tests/reliability/sync-procs.test.ts': 'sync as processes: kill -9, beside serve, --watch',
  'tests/adapters/contract.test.ts': 'spawns stdio, Bun HTTP and Deno servers, workerd',
  'tests/adapters/e2e-stdio.test.ts': 'spawns the stdio server',
  'tests/adapters/http-security.test.ts': 'spawns the Bun HTTP server, drives Chromium',
  'tests/adapters/import-files.test.ts': 'spawns the CLI',
  'tests/adapters/import.test.ts': 'spawns the CLI and the stdio server',
  'tests/adapters/lock.test.ts': 'spawns the CLI',
  'tests/adapters/mcp-surface-adapters.test.ts': 'spawns Bun HTTP and stdio servers',
  'tests/adapters/measure.test.ts': 'spawns the CLI and measured servers',
  'tests/adapters/modes.test.ts': 'spawns stdio servers',
  'tests/core/bad-input.test.ts': 'spawns the stdio server',
  'tests/core/help.test.ts': 'spawns the CLI',
  'tests/db/d1-batch-patch.test.ts': 'workerd (miniflare)',
  'tests/db/dump.test.ts': 'spawns the CLI',
  'tests/oauth/oauth-e2e.test.ts': 'spawns the Bun HTTP server, drives Chromium',
  'tests/observe/export.test.ts': 'spawns the CLI',
  'tests/observe/metrics.test.ts': 'spawns the Bun HTTP server',
  'tests/observe/progress.test.ts': 'spawns the CLI under a pseudo-terminal',
  'tests/observe/shutdown.test.ts': 'spawns and signals servers',
  'tests/protocol/schema-portability.test.ts': 'spawns the stdio server',
  'tests/protocol/stdio-lines.test.ts': 'spawns the stdio server',
  'tests/reliability/crash.test.ts': 'spawns and kills servers',
  'tests/reliability/dump-d1.test.ts': 'workerd (miniflare), spawns the CLI',
  'tests/reliability/dump-live.test.ts': 'spawns the CLI beside a live server',
  'tests/reliability/multi-process.test.ts': 'spawns several servers on one file',
  'tests/reliability/races-d1.test.ts': 'workerd (miniflare)',
  'tests/reliability/upgrade-procs.test.ts': 'spawns servers of two releases',
  'tests/web/app.test.ts': 'spawns the CLI for login links',
  'tests/web/browser.test.ts': 'drives Chromium',
  // In process, but each reads the third-party Markdown under node_modules as a corpus (tens of seconds).
  'tests/bench/retrieval-tasks.test.ts': 'builds the retrieval benchmark from ~1,000 node_modules documents',
  'tests/core/search-ranking.test.ts': 'imports ~1,000 node_modules documents to check ranking floors',
};

/** Whether a test file (repository-relative path) runs only in the full suite. */
export function isSlowTest(path: string): boolean {
  return Object.keys(SLOW_TESTS).some((slow) => (slow.endsWith('/') ? path.startsWith(slow) : path === slow));
}

/** The fast loop's test files, repository-relative and sorted. */
export function fastTests(root: string): string[] {
  return [...new Glob('tests/**/*.test.ts').scanSync({ cwd: root })].filter((p) => !isSlowTest(p)).sort();
}

/** bunfig.toml's per-test timeout, which --parallel workers do not read. */
const TIMEOUT_MS = 60_000;

if (import.meta.main) {
  const root = new URL('..', import.meta.url).pathname;
  const files = fastTests(root).map((p) => `./${p}`);
  const env = { ...process.env, BINDERY_PROPERTY_RUNS: process.env.BINDERY_PROPERTY_RUNS || '10' };
  const proc = Bun.spawn(['bun', 'test', '--parallel', `--timeout=${TIMEOUT_MS}`, ...process.argv.slice(2), ...files], {
    cwd: root,
    env,
    stdio: ['inherit', 'inherit', 'inherit'],
  });
  process.exit(await proc.exited);
}
