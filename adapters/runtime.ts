// Shared start-up for the Bun/Node adapters: config from process.env, the database file's folder,
// migrations, stored-count upkeep. Runtime-specific on purpose (node:fs), so it lives here, not in core.
import type { BackfillProgress } from '../db/store/fts.ts';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { embeddedPath, openEmbedded, type Database } from '../db/client-embedded.ts';
import { migrate } from '../db/migrate.ts';
import {
  createTiktokenCounter,
  parseConfig,
  stderrLogger,
  type BinderyConfig,
  type BinderyDeps,
  type TokenCounter,
} from '../core/index.ts';
import { ensureStoredCountsOnce } from '../core/services/prepare.ts';
import { ensureHelpTopics } from '../core/services/help.ts';
import { runtimeTelemetry } from './telemetry.ts';
import { pruneSignIns } from '../core/services/web-sessions.ts';
import { pruneStaleOAuthClients } from '../core/services/oauth.ts';
import { REGISTRATION_LIMITS } from '../core/oauth/register.ts';
import { jsonLogger } from '../core/observe/log.ts';

export interface Runtime {
  deps: BinderyDeps;
  database: Database;
  config: BinderyConfig;
  /** The start-up pruning `pruneLater` left for later (nothing to do otherwise). */
  prune(): Promise<void>;
}

/**
 * Opens (creating if needed) and migrates the configured database, then returns the core's deps.
 * `upkeep` (servers and `bindery migrate`) also brings stored counts and help topics to this
 * configuration; other commands leave them alone, so a CLI run with other settings beside a server
 * rewrites nothing that server relies on. `tokens` may supply a counter already under way for the
 * configured encoding (the stdio server's threaded one).
 */
export async function openRuntime(
  env: Record<string, string | undefined> = process.env,
  opts: {
    upkeep?: boolean | 'counts';
    progress?: BackfillProgress;
    tokens?: (encoding: BinderyConfig['tokenizer']) => TokenCounter | undefined;
    /** With `upkeep: true`: leave the pruning to the caller's `prune()` (the stdio server runs it after answering). */
    pruneLater?: boolean;
  } = {},
): Promise<Runtime> {
  const config = parseConfig(env);
  if (config.dbUrl.startsWith('file:') && !config.dbUrl.includes(':memory:')) {
    mkdirSync(dirname(config.dbUrl.slice('file:'.length)), { recursive: true });
  }
  const telemetry = runtimeTelemetry(config);
  // A remote URL loads @libsql/client's protocols; an embedded file (the stdio default) never does.
  const path = embeddedPath(config.dbUrl);
  const options = { url: config.dbUrl, authToken: config.dbAuthToken, events: telemetry?.metrics.db };
  const database = path !== undefined ? openEmbedded(path, options) : (await import('../db/client.ts')).createDatabase(options);
  await migrate(database.db, { progress: opts.progress });
  const write = (line: string) => void process.stderr.write(`${line}\n`);
  const log = config.observe?.logFormat === 'json' ? jsonLogger(write) : stderrLogger(write);
  const deps = {
    db: database.db,
    tokens: opts.tokens?.(config.tokenizer) ?? createTiktokenCounter(config.tokenizer),
    config,
    log,
    now: () => Date.now(),
    telemetry,
  };
  if (opts.upkeep) {
    // The check the first tool call would make (ensureStoredCountsOnce), made now: that call finds it done.
    const recounted = await ensureStoredCountsOnce(deps);
    if (recounted) log.info(`recounted tokens of ${recounted} versions for ${config.tokenizer} at ${config.publicUrl}`);
    await ensureHelpTopics(deps);
  }
  // Pruning is for a database in service; a restore's upkeep ('counts') leaves every restored row as it was dumped.
  const prune = async () => {
    // Sign-ins that ended more than a day ago (expired, revoked, unused links) are of no use to anyone.
    await pruneSignIns(deps.db, Date.now() - 24 * 3600_000);
    // OAuth clients registered and never authorized by anyone expire (core/oauth/register.ts).
    await pruneStaleOAuthClients(deps.db, Date.now() - REGISTRATION_LIMITS.pendingTtlMs);
  };
  if (opts.upkeep === true && !opts.pruneLater) await prune();
  const later = opts.upkeep === true && opts.pruneLater;
  return { deps, database, config, prune: later ? prune : async () => {} };
}
