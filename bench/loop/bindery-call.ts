// The Bindery agent's one command:
//   bun bench/loop/bindery-call.ts --list-tools            the tool definitions a client lists (lazy default)
//   bun bench/loop/bindery-call.ts <tool> '<json args>'    one tool call; prints exactly the text the model reads
//   bun bench/loop/bindery-call.ts --answer '<text>'       records the final answer (not counted)
// Flags or env: --corpus|LOOP_CORPUS (thirdparty|private), --log|LOOP_LOG, --qid|QID, --session|LOOP_SESSION
// (default: the QID). The corpus is imported once (as `bindery import` does) into a file database under
// bench/loop/.cache/db keyed by the corpus and Bindery's source; each call runs on a copy of it, over the
// MCP SDK's real Client (InMemoryTransport) in lazy mode. Tools that search_tools (or a direct call)
// listed stay listed for the rest of the session: a small state file per session replays them, and the
// definitions a call newly lists are printed after its response and counted (listedTokens).
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { createDatabase, migrate } from '../../db/index.ts';
import { createBinderyServer, parseConfig } from '../../core/index.ts';
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
  const enabled: string[] = tool !== '--list-tools' && existsSync(statePath) ? JSON.parse(readFileSync(statePath, 'utf8')) : [];
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
    const had = new Set(before.map((t) => t.name));
    const added = after.filter((t) => !had.has(t.name));
    const addedLines = defs(added);
    const listedTokens = addedLines.reduce((n, l) => n + tokens.count(l), 0);
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    if (added.length) process.stdout.write(`\n[tools/list changed: now also listed]\n${addedLines.join('\n')}\n`);
    const nowEnabled = after.map((t) => t.name).filter((n) => !base.alwaysTools.includes(n));
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(statePath, JSON.stringify(nowEnabled));
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
