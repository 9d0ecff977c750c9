// Does `bun run serve` keep serving everyone while it is attacked? 16 normal clients call
// `get_binding` tier 1 in a closed loop, first on a quiet server, then while, at once, anonymous
// registrations (every field at its limit), junk paths under /api/ and web diff requests on two
// unrelated ~935 KB versions flood it from the same machine. Goal: the normal clients' p99 stays
// within 2× of the quiet run. The server runs in its own process; the load runs here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentiles, round, type BenchRow, type BenchSection } from './types.ts';

const ROOT = join(import.meta.dir, '..');
const CLIENTS = 16;
const ATTACKERS = { register: 4, junk: 4, diff: 4 };
const WARMUP_MS = 1_000;
const MEASURE_MS = 4_000;
const HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Protocol-Version': '2025-06-18' };

function freePort(): number {
  const s = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

/** Deterministic ~935 KB of distinct lines (two seeds give two unrelated versions). */
function bigText(seed: number): string {
  let s = seed >>> 0;
  const rand = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  return Array.from({ length: 17_000 }, (_, i) => `line ${i} ${Math.floor(rand() * 1e9).toString(36)} ${'x'.repeat(30)}`).join('\n') + '\n';
}

async function seed(dbUrl: string, publicUrl: string): Promise<{ key: string; id: string; bigId: string; cookie: string }> {
  const { createDatabase, migrate } = await import('../db/index.ts');
  const { parseConfig, createTiktokenCounter } = await import('../core/index.ts');
  const { ensureCaller, ensureStoredCountsOnce } = await import('../core/services/prepare.ts');
  const { createBinding, updateBinding } = await import('../core/services/bindings.ts');
  const { createApiKey } = await import('../core/http/auth.ts');
  const { createLoginLink, signIn } = await import('../core/web/session.ts');
  const database = createDatabase({ url: dbUrl });
  await migrate(database.db);
  const tokens = createTiktokenCounter('o200k_base');
  await tokens.load();
  const deps = { db: database.db, tokens, config: parseConfig({ BINDERY_PUBLIC_URL: publicUrl }), now: () => Date.now() };
  const caller = await ensureCaller(deps, 'bench');
  const human = { source: 'human' as const, model: null };
  const content = `# Benchmark note\n\n${'Some realistic paragraph text about a topic. '.repeat(60)}\n`;
  const row = await createBinding(
    deps,
    caller,
    { name: 'Benchmark note', content, summary: 'A note read by the benchmark.', keyPoints: ['one', 'two'] },
    human,
  );
  const big = await createBinding(deps, caller, { name: 'Big', content: bigText(1), summary: 'Two unrelated versions.' }, human);
  await updateBinding(deps, caller, big.bindingId, { content: bigText(2) }, human);
  const { key } = await createApiKey(database.db, caller.id, Date.now());
  const session = await signIn(deps, (await createLoginLink(deps, caller.id)).url.split('/login/')[1]!);
  await ensureStoredCountsOnce(deps);
  database.close();
  return { key, id: row.bindingId, bigId: big.bindingId, cookie: session!.setCookie.split(';')[0]! };
}

/** 16 closed-loop clients for WARMUP_MS + MEASURE_MS: p50/p99 of the measured part. */
async function normalLoad(base: string, key: string, call: string): Promise<{ p50: number; p99: number; n: number; errors: number }> {
  const samples: number[] = [];
  let errors = 0;
  const warmEnd = performance.now() + WARMUP_MS;
  const end = warmEnd + MEASURE_MS;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const res = await fetch(`${base}/mcp`, { method: 'POST', headers: { ...HEADERS, Authorization: `Bearer ${key}` }, body: call });
        const text = await res.text();
        const t1 = performance.now();
        if (res.status !== 200 || text.includes('"isError":true')) errors++;
        if (t0 >= warmEnd) samples.push(t1 - t0);
      }
    }),
  );
  const p = percentiles(samples);
  return { p50: p.p50, p99: p.p99, n: samples.length, errors };
}

/** The attackers: each loops until `stop` resolves; answers are counted by kind and status. */
function flood(base: string, bigId: string, cookie: string): { stop(): Promise<Record<string, Record<number, number>>> } {
  let running = true;
  const counts: Record<string, Record<number, number>> = { register: {}, junk: {}, diff: {} };
  const count = (kind: string, status: number) => void (counts[kind]![status] = (counts[kind]![status] ?? 0) + 1);
  const fat = JSON.stringify({
    redirect_uris: Array.from({ length: 5 }, (_, i) => `https://app.example/${i}/${'p'.repeat(480)}`),
    client_name: 'n'.repeat(100),
    client_uri: `https://app.example/${'c'.repeat(480)}`,
    scope: 's'.repeat(256),
  });
  let junk = 0;
  const loop = (kind: string, send: () => Promise<Response>) =>
    (async () => {
      while (running) {
        const res = await send().catch(() => undefined);
        await res?.arrayBuffer();
        count(kind, res?.status ?? 0);
      }
    })();
  const loops = [
    ...Array.from({ length: ATTACKERS.register }, () =>
      loop('register', () => fetch(`${base}/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: fat })),
    ),
    ...Array.from({ length: ATTACKERS.junk }, () => loop('junk', () => fetch(`${base}/api/junk-${junk++}`))),
    ...Array.from({ length: ATTACKERS.diff }, () =>
      loop('diff', () => fetch(`${base}/b/${bigId}/diff?from=1&to=2`, { headers: { cookie } })),
    ),
  ];
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return counts;
    },
  };
}

export async function run(): Promise<BenchSection> {
  const dir = mkdtempSync(join(tmpdir(), 'bindery-floodbench-'));
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const dbUrl = `file:${join(dir, 'flood.db')}`;
  const { key, id, bigId, cookie } = await seed(dbUrl, base);
  const env = {
    BINDERY_DB_URL: dbUrl,
    BINDERY_PUBLIC_URL: base,
    PORT: String(port),
    BINDERY_HTTP_STATELESS: '1',
    BINDERY_TOOL_MODE: 'eager',
    BINDERY_METRICS_TOKEN: 'flood-bench-metrics-token-0123456789',
  };
  const proc = Bun.spawn(['bun', 'adapters/bun-http.ts'], {
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), ...env },
    stdout: 'ignore',
    stderr: 'ignore',
  });
  try {
    const until = performance.now() + 20_000;
    while (
      (await fetch(`${base}/healthz`)
        .then((r) => r.status)
        .catch(() => 0)) !== 200
    ) {
      if (performance.now() > until) throw new Error('server did not come up');
      await Bun.sleep(20);
    }
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_binding', arguments: { id, tier: '1' } },
    });
    const quiet = await normalLoad(base, key, call);
    const attack = flood(base, bigId, cookie);
    await Bun.sleep(500);
    const loud = await normalLoad(base, key, call);
    const counts = await attack.stop();
    const series = (await (await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${env.BINDERY_METRICS_TOKEN}` } })).text())
      .split('\n')
      .filter((l) => l.startsWith('bindery_http_requests_total{')).length;
    // No answer inside the window at all (as before the flood limits) counts as unbounded.
    const ratio = loud.n ? loud.p99 / quiet.p99 : Infinity;
    const pair = (l: { p50: number; p99: number; n: number }) =>
      l.n ? `${round(l.p50)} / ${round(l.p99)}` : `no answer within ${MEASURE_MS / 1000} s`;
    const fmt = (c: Record<number, number>) =>
      Object.entries(c)
        .map(([s, n]) => `${n}×${s}`)
        .join(', ');
    const rows: BenchRow[] = [
      { metric: `quiet: ${CLIENTS} clients get_binding p50 / p99`, value: pair(quiet), unit: 'ms' },
      { metric: `flooded: ${CLIENTS} clients get_binding p50 / p99`, value: pair(loud), unit: 'ms' },
      { metric: 'flooded p99 ÷ quiet p99', value: Number.isFinite(ratio) ? round(ratio) : 'unbounded', goal: '≤ 2', met: ratio <= 2 },
      { metric: 'normal requests (quiet, flooded); errors', value: `${quiet.n}, ${loud.n}; ${quiet.errors + loud.errors}` },
      { metric: `flood answers: register (${ATTACKERS.register} loops)`, value: fmt(counts.register!) },
      { metric: `flood answers: junk /api/ paths (${ATTACKERS.junk} loops)`, value: fmt(counts.junk!) },
      { metric: `flood answers: ~935 KB diffs (${ATTACKERS.diff} loops)`, value: fmt(counts.diff!) },
      { metric: 'http request series in /metrics after the flood', value: series },
    ];
    return { title: `Flood (${CLIENTS} clients; registrations, junk paths and diffs at once)`, rows, extra: { quiet, loud, counts } };
  } finally {
    proc.kill();
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}
