// The official MCP conformance suite (@modelcontextprotocol/conformance, run under Bun) against
// Bindery's HTTP transports: sessions and stateless (`bun adapters/bun-http.ts`) and the edge handler
// under Deno. The suite sends no Authorization header, so it talks to a loopback proxy that adds
// alice's key and forwards everything else as sent — Host and Origin included, so the
// dns-rebinding-protection scenario tests the server's own check, not the proxy's.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import {
  authProxy,
  pool,
  runConformance,
  startTransport,
  transportUnavailable,
  type AuthProxy,
  type ConformanceResult,
  type Endpoint,
  type TransportName,
} from '../../support/clients/harness.ts';

export const REQUIRED_SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'dns-rebinding-protection',
  'logging-set-level',
  'resources-list',
  'prompts-list',
  'server-sse-multiple-streams',
] as const;

const TRANSPORTS: TransportName[] = ['http-sessions', 'http-stateless', 'deno-edge'];
const STATELESS = new Set<TransportName>(['http-stateless', 'deno-edge']);

/**
 * server-sse-multiple-streams opens three POST streams on one Mcp-Session-Id. A stateless server
 * issues none, and the suite then stops at a WARNING (`server-sse-multiple-streams-session`) and exits
 * 0: the scenario does not apply. That exact outcome is what a stateless transport must give; the
 * concurrency it would have tested is checked directly below.
 */
function verdict(transport: TransportName, r: ConformanceResult): { ok: boolean; why: string } {
  const failures = r.checks.filter((c) => c.status === 'FAILURE');
  if (r.scenario === 'server-sse-multiple-streams' && STATELESS.has(transport)) {
    const onlyNoSession =
      r.checks.length === 1 && r.checks[0]!.id === 'server-sse-multiple-streams-session' && r.checks[0]!.status === 'WARNING';
    return { ok: r.exitCode === 0 && onlyNoSession, why: onlyNoSession ? 'n/a (stateless: no session id)' : r.problems.join('; ') };
  }
  return { ok: r.exitCode === 0 && r.passed && failures.length === 0, why: r.problems.join('; ') || `exit ${r.exitCode}` };
}

const live = new Map<TransportName, { endpoint: Endpoint; proxy: AuthProxy }>();
const results = new Map<string, ConformanceResult>();
const skipped = new Map<TransportName, string>();

beforeAll(async () => {
  const runnable = TRANSPORTS.filter((t) => {
    const why = transportUnavailable(t);
    if (why) skipped.set(t, why);
    return !why;
  });
  // Each server starts once; the scenarios then run a few at a time (each is one short Bun process).
  await Promise.all(
    runnable.map(async (t) => {
      const endpoint = await startTransport(t);
      live.set(t, { endpoint, proxy: authProxy(endpoint.mcpUrl!.replace(/\/mcp$/, ''), endpoint.key!) });
    }),
  );
  const jobs = [...live].flatMap(([t, { proxy }]) =>
    REQUIRED_SCENARIOS.map((s) => async () => results.set(`${t} ${s}`, await runConformance(`${proxy.url}/mcp`, s))),
  );
  await pool(3, jobs);
  const table = [...live.keys()].flatMap((t) =>
    REQUIRED_SCENARIOS.map((s) => {
      const v = verdict(t, results.get(`${t} ${s}`)!);
      return `  ${v.ok ? 'pass' : 'FAIL'}  ${t.padEnd(15)} ${s.padEnd(28)} ${v.ok && !v.why.startsWith('n/a') ? '' : v.why.slice(0, 300)}`;
    }),
  );
  console.log(`conformance 0.1.16:\n${table.join('\n')}`);
}, 120_000);

afterAll(async () => {
  for (const { endpoint, proxy } of live.values()) {
    proxy.stop();
    await endpoint.stop();
  }
});

for (const transport of TRANSPORTS) {
  describe(`conformance on ${transport}`, () => {
    for (const scenario of REQUIRED_SCENARIOS) {
      test(scenario, () => {
        if (skipped.has(transport)) {
          console.warn(`skipped ${transport}: ${skipped.get(transport)}`);
          return;
        }
        const r = results.get(`${transport} ${scenario}`);
        expect(r).toBeDefined();
        const v = verdict(transport, r!);
        expect(v.ok ? 'pass' : `${scenario} on ${transport}: ${v.why}`).toBe('pass');
      });
    }
  });
}

describe('the auth proxy is transparent', () => {
  test('adds the key, keeps Host and Origin as sent, streams SSE before the upstream ends', async () => {
    const seen: Record<string, string | null>[] = [];
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const upstream = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch(request) {
        seen.push({ host: request.headers.get('host'), origin: request.headers.get('origin'), auth: request.headers.get('authorization') });
        const body = new ReadableStream<Uint8Array>({
          async start(c) {
            c.enqueue(new TextEncoder().encode('event: message\ndata: first\n\n'));
            await released; // the second event (and the end) only after the client saw the first
            c.enqueue(new TextEncoder().encode('event: message\ndata: second\n\n'));
            c.close();
          },
        });
        return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
      },
    });
    const proxy = authProxy(`http://127.0.0.1:${upstream.port}`, 'bdk_test');
    try {
      const r = await fetch(`${proxy.url}/mcp`, {
        headers: { Host: 'evil.example.com', Origin: 'http://evil.example.com', Accept: 'text/event-stream' },
      });
      const reader = r.body!.pipeThrough(new TextDecoderStream()).getReader();
      const first = await Promise.race([reader.read(), Bun.sleep(5_000).then(() => ({ value: 'timeout' }))]);
      expect(first.value).toContain('data: first');
      release();
      let rest = '';
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += chunk.value;
      expect(rest).toContain('data: second');
      expect(seen).toEqual([{ host: 'evil.example.com', origin: 'http://evil.example.com', auth: 'Bearer bdk_test' }]);
    } finally {
      proxy.stop();
      upstream.stop(true);
    }
  });
});

describe('what the suite cannot test on stateless transports', () => {
  for (const transport of ['http-stateless', 'deno-edge'] as const) {
    test(`${transport}: concurrent POSTs (the multiple-streams check, without a session)`, async () => {
      if (skipped.has(transport)) return;
      const { proxy } = live.get(transport)!;
      const post = async (id: number) => {
        const init = {
          jsonrpc: '2.0',
          id,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'multi', version: '1' } },
        };
        const list = { jsonrpc: '2.0', id: id + 1, method: 'tools/list', params: {} };
        const headers = {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'Mcp-Protocol-Version': '2025-11-25',
        };
        await fetch(`${proxy.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(init) }).then((r) => r.text());
        const r = await fetch(`${proxy.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(list) });
        const text = await r.text();
        return { status: r.status, hasTools: text.includes('"create_binding"') };
      };
      const answers = await Promise.all([1, 10, 20].map(post));
      expect(answers).toEqual(Array(3).fill({ status: 200, hasTools: true }));
    });
  }
});
