// A fresh clone without cloning: the working tree's tracked and new files (not ignored ones, so no
// node_modules, dist or data) copied into a new git repository, as `git clone` would leave it.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from '../../support/targets.ts';

/** Copies the working tree into `to` and commits it there; returns `to`. */
export function snapshotTree(to: string): string {
  const listed = Bun.spawnSync(['git', 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT })
    .stdout.toString()
    .split('\0')
    .filter(Boolean);
  for (const file of listed) {
    const target = join(to, file);
    mkdirSync(dirname(target), { recursive: true });
    try {
      copyFileSync(join(ROOT, file), target);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e; // deleted but not yet committed
    }
  }
  const git = (...args: string[]) => {
    const p = Bun.spawnSync(['git', '-c', 'user.email=t@example.com', '-c', 'user.name=test', ...args], { cwd: to });
    if (p.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${p.stderr.toString()}`);
  };
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'snapshot');
  return to;
}

/** The environment for a real, quiet npm run: PATH and HOME given, npm's noise off, proxies and npm's cache and registry passed through. */
export function npmEnv(path: string, home: string): Record<string, string> {
  const env: Record<string, string> = {
    PATH: path,
    HOME: home,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_prefer_offline: 'true',
    npm_config_loglevel: 'error',
  };
  for (const k of [
    'HTTPS_PROXY',
    'HTTP_PROXY',
    'NO_PROXY',
    'https_proxy',
    'http_proxy',
    'no_proxy',
    'npm_config_cache',
    'npm_config_registry',
  ]) {
    if (process.env[k]) env[k] = process.env[k]!;
  }
  return env;
}
