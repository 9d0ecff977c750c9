#!/usr/bin/env node
// The `bindery` command as npm installs it (package.json `bin`). Bindery runs on Bun, and npm, npx
// and a global install run a bin with Node, so this shim stays plain JavaScript: it runs the CLI
// (adapters/cli.ts) with the `bun` on PATH (or $BINDERY_BUN), passing arguments, stdio, signals and
// the exit code through; under Bun itself (bunx, `bun bin/bindery.js`) it loads the CLI in-process.
// With no Bun at all it says so in one line and exits 127, instead of a stack trace about `.ts`.
// `npm i -g .` in a clone links the folder without installing its dependencies; the first run then
// installs them with `bun install --production` (from bun.lock), saying so on stderr, and builds the
// pre-built stdio server (scripts/build-stdio.ts) that the install's `prepare` could not.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'adapters', 'cli.ts');
const bun = process.env.BINDERY_BUN || (process.versions.bun ? process.execPath : 'bun');

function noBun(err) {
  if (err?.code === 'ENOENT') {
    process.stderr.write(
      `bindery: needs Bun (>= 1.4.5) and found no "${bun}" on PATH; install it (https://bun.sh: curl -fsSL https://bun.sh/install | bash) or set BINDERY_BUN to its path\n`,
    );
    process.exit(127);
  }
  process.stderr.write(`bindery: could not start ${bun}: ${err?.message ?? err}\n`);
  process.exit(1);
}

/** Whether the package's runtime dependencies resolve from its folder (hoisted or not). */
function installed() {
  try {
    createRequire(join(root, 'package.json')).resolve('@libsql/client');
    return true;
  } catch {
    return false;
  }
}

if (!installed() && existsSync(join(root, 'bun.lock'))) {
  process.stderr.write(`bindery: installing dependencies in ${root} (bun install --production, once)\n`);
  const done = spawnSync(bun, ['install', '--production', '--frozen-lockfile', '--ignore-scripts'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (done.error) noBun(done.error);
  if (done.status !== 0) {
    process.stderr.write(`bindery: bun install failed in ${root}; run it there yourself\n`);
    process.exit(1);
  }
  // The pre-built stdio server (dist/stdio/) that `prepare` could not build without the dependencies;
  // if this fails, `bindery stdio` runs the sources.
  spawnSync(bun, [join(root, 'scripts', 'build-stdio.ts')], { cwd: root, stdio: ['ignore', 2, 2] });
}

if (process.versions.bun && !process.env.BINDERY_BUN) {
  await import(cli);
} else {
  const child = spawn(bun, [cli, ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', noBun);
  child.on('exit', (code, signal) => process.exit(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1)));
}
