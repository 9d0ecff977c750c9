// A session that serves many calls holds no memory per call. The SDK's transport (1.32.2) keeps an
// entry for every answered request in JSON-response mode; core/http/mcp.ts releases them after each
// exchange. This test is the guard the README promises: it fails if that release goes inert (the SDK
// renamed what it reaches into) while the SDK still leaks.
import { afterEach, describe, expect, test } from 'bun:test';
import { BASE, MCP_HEADERS, httpWorld, type HttpWorld } from './http-world.ts';

let w: HttpWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

async function post(app: HttpWorld['app'], key: string, body: unknown, sid?: string): Promise<Response> {
  const headers: Record<string, string> = {
    ...MCP_HEADERS,
    Authorization: `Bearer ${key}`,
    'Mcp-Protocol-Version': '2025-06-18',
    ...(sid ? { 'Mcp-Session-Id': sid } : {}),
  };
  return app.fetch(new Request(`${BASE}/mcp`, { method: 'POST', headers, body: JSON.stringify(body) }));
}

describe('a long-lived session', () => {
  test('2,000 calls (16 at a time) leave no per-call state on the session transport', async () => {
    w = await httpWorld();
    const key = w.seed.aliceKey;
    const init = await post(w.app, key, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'long', version: '1' } },
    });
    const sid = init.headers.get('mcp-session-id')!;
    await init.text();
    await post(w.app, key, { jsonrpc: '2.0', method: 'notifications/initialized' }, sid);
    for (let i = 0; i < 2_000; i += 16) {
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, j) =>
          post(w!.app, key, { jsonrpc: '2.0', id: 1 + i + j, method: 'tools/call', params: { name: 'whoami', arguments: {} } }, sid).then(
            (r) => r.json(),
          ),
        ),
      );
      for (const a of answers) expect((a as { result?: { isError?: boolean } }).result?.isError).toBeFalsy();
    }
    const transport = w.app.sessions!.get(sid)!.transport as unknown as {
      _streamMapping?: Map<string, unknown>;
      _requestToStreamMapping?: Map<unknown, string>;
    };
    // The maps the release relies on still exist under these names (else it went inert)…
    expect(transport._streamMapping).toBeInstanceOf(Map);
    expect(transport._requestToStreamMapping).toBeInstanceOf(Map);
    // …and hold nothing once every call is answered.
    expect(transport._streamMapping!.size).toBe(0);
    expect(transport._requestToStreamMapping!.size).toBe(0);
  }, 60_000);
});
