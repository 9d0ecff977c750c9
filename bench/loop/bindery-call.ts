// The Bindery agent's one command:
//   bun bench/loop/bindery-call.ts --list-tools            the tool definitions a client lists (lazy default)
//   bun bench/loop/bindery-call.ts <tool> '<json args>'    one tool call; prints exactly the text the model reads
//   bun bench/loop/bindery-call.ts --answer '<text>'       records the final answer (not counted)
// Flags or env: --corpus|LOOP_CORPUS (thirdparty|private), --log|LOOP_LOG, --qid|QID, --session|LOOP_SESSION
// (default: the QID). The corpus is imported once (as `bindery import` does) into a file database under
// bench/loop/.cache/db keyed by the corpus and Bindery's source; each call runs on a copy of it, over the
// MCP SDK's real Client (InMemoryTransport) in lazy mode. Tools that search_tools (or a direct call)
// listed stay listed for the rest of the session, and so do the full definitions of always-listed tools
// a search showed (lazy mode lists those lean first): a small state file per session replays both, and
// the definitions a call newly lists are printed after its response and counted (listedTokens; for a
// lean definition replaced by the full one, the tokens it adds).
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { createDatabase, migrate } from '../../db/index.ts';
import { createBinderyServer, createRegistry, parseConfig } from '../../core/index.ts';
import { leanListEntry } from '../../core/tools/listing.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { importDocument } from '../../core/services/import.ts';
import { modelJson } from '../../core/footprint/definition.ts';
import type { CoreDeps } from '../../core/services/bindings.ts';
import { CACHE_DIR, loadCorpus, sourceHash, type LoopCorpus } from './corpus.ts';
import { main, parseOptions, recordAnswer, tokenCounter, writeLog } from './log.ts';

const CALLER = 'loop';

/** The cached database of a corpus, built on first use (into a temporary file, then renamed). */
async function corpusDatabase(corpus: LoopCorpus): Promise<string> {
  const key = createHash('sha256').update(corpus.hash).update(sourceHash()).digest('hex').slice(0, 16);
  const path = join(CACHE_DIR, 'db', `${corpus.name}-${key}.db`);
  if (existsSync(path)) return path;
  mkdirSync(join(CACHE_DIR, 'db'), { recursive: true });
  const building = `${path}.build-${process.pid}`;
  process.stderr.write(`building the ${corpus.name} database (${corpus.files.length} documents), once…\n`);
  const config = parseConfig({ BINDERY_DB_URL: `file:${building}` });
  const database = createDatabase({ url: config.dbUrl });
  try {
    await migrate(database.db);
    const tokens = await tokenCounter();
    const deps: CoreDeps = { db: database.db, tokens, config, now: () => Date.now() };
    const caller = await ensureCaller(deps, CALLER);
    for (const f of corpus.files) {
      const out = await importDocument(deps, caller, { sourcePath: f.path, bytes: new TextEncoder().encode(f.text) });
      if (out.status === 'skipped') process.stderr.write(`skipped ${f.path}: ${out.reason}\n`);
    }
  } finally {
    database.close();
  }
  renameSync(building, path);
  for (const ext of ['-wal', '-shm']) rmSync(building + ext, { force: true });
  return path;
}

const defs = (tools: Tool[]) => tools.map((t) => modelJson(t));

/** What a session replays: tools enabled, and always-listed tools listed in full (older state files: the first only). */
interface SessionState {
  enabled: string[];
  full: string[];
}

function readState(path: string): SessionState {
  if (!existsSync(path)) return { enabled: [], full: [] };
  const data = JSON.parse(readFileSync(path, 'utf8')) as string[] | SessionState;
  return Array.isArray(data) ? { enabled: data, full: [] } : data;
}

main(async () => {
  const opts = parseOptions(process.argv.slice(2));
  const [tool, rawArgs] = opts.rest;
  if (!tool) throw new Error("usage: bindery-call.ts --list-tools | <tool> '<json args>' | --answer '<text>'");
  if (tool === '--answer') return recordAnswer(opts, 'bindery', opts.rest.slice(1).join(' '));
  const corpus = loadCorpus(opts.corpus);
  const cached = await corpusDatabase(corpus);
  const work = join(tmpdir(), `bindery-loop-${process.pid}-${Date.now()}.db`);
  copyFileSync(cached, work);

  const stateDir = join(CACHE_DIR, 'sessions');
  const statePath = join(stateDir, `${corpus.name}-${opts.session.replace(/[^\w.-]/g, '_')}.json`);
  const state = tool === '--list-tools' ? { enabled: [], full: [] } : readState(statePath);
  const enabled = state.enabled;
  const base = parseConfig({ BINDERY_DB_URL: `file:${work}`, BINDERY_TOOL_MODE: 'lazy' });
  const config = { ...base, alwaysTools: [...base.alwaysTools, ...enabled.filter((n) => !base.alwaysTools.includes(n))] };
  const database = createDatabase({ url: config.dbUrl });
  const tokens = await tokenCounter();
  try {
    const deps: CoreDeps = { db: database.db, tokens, config, now: () => Date.now() };
    const caller = await ensureCaller(deps, CALLER);
    const server = createBinderyServer(deps, { caller, mode: 'lazy' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    const client = new Client({ name: 'loop-agent', version: '1.0.0' });
    await client.connect(a);
    // An always-listed tool a search showed in full is shown again the same way (not logged).
    for (const name of state.full) await client.callTool({ name: 'search_tools', arguments: { query: name, limit: 1 } });
    const before = (await client.listTools()).tools;

    if (tool === '--list-tools') {
      const lines = defs(before);
      const total = lines.reduce((n, l) => n + tokens.count(l), 0);
      process.stdout.write(`${lines.join('\n')}\n# ${before.length} tools, ${total} model-visible tokens (o200k_base)\n`);
      writeLog(opts, 'bindery', { kind: 'definitions', definitionsTokens: total, tool: before.map((t) => t.name).join(',') });
      await client.close();
      return;
    }

    let args: unknown;
    try {
      args = rawArgs === undefined || rawArgs.trim() === '' ? {} : JSON.parse(rawArgs);
    } catch (e) {
      throw new Error(`arguments: not JSON (${e instanceof Error ? e.message : e}); give one JSON object, e.g. '{"query":"…"}'`);
    }
    let text: string;
    let isError = false;
    try {
      const r = (await client.callTool({ name: tool, arguments: args as Record<string, unknown> })) as {
        content?: { type: string; text?: string }[];
        isError?: boolean;
      };
      text = (r.content ?? [])
        .filter((c) => c.type === 'text')
        .map((c) => c.text ?? '')
        .join('\n');
      isError = !!r.isError;
    } catch (e) {
      text = e instanceof Error ? e.message : String(e);
      isError = true;
    }
    const after = (await client.listTools()).tools;
    const had = new Map(before.map((t) => [t.name, modelJson(t)]));
    const added = after.filter((t) => !had.has(t.name));
    const fuller = after.filter((t) => had.has(t.name) && had.get(t.name) !== modelJson(t));
    const addedLines = defs(added);
    const fullerLines = defs(fuller);
    const listedTokens =
      addedLines.reduce((n, l) => n + tokens.count(l), 0) +
      fuller.reduce((n, t) => n + tokens.count(modelJson(t)) - tokens.count(had.get(t.name)!), 0);
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    if (added.length) process.stdout.write(`\n[tools/list changed: now also listed]\n${addedLines.join('\n')}\n`);
    if (fuller.length) process.stdout.write(`\n[tools/list changed: now listed in full]\n${fullerLines.join('\n')}\n`);
    const registry = createRegistry();
    const next: SessionState = {
      enabled: after.map((t) => t.name).filter((n) => !base.alwaysTools.includes(n)),
      full: after
        .filter((t) => base.alwaysTools.includes(t.name) && modelJson(t) !== modelJson(leanListEntry(registry.get(t.name)!)))
        .map((t) => t.name),
    };
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(statePath, JSON.stringify(next));
    writeLog(opts, 'bindery', {
      kind: 'call',
      tool,
      args,
      argsTokens: tokens.count(JSON.stringify(args)),
      responseTokens: tokens.count(text),
      listedTokens,
      isError,
    });
    await client.close();
  } finally {
    database.close();
    for (const ext of ['', '-wal', '-shm']) rmSync(work + ext, { force: true });
  }
});
