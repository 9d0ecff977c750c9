// JSON-RPC shapes on /mcp (the in-process HTTP app): every 4xx body is {jsonrpc, id: null, error},
// batches only under 2025-03-26 ([] never), malformed params -32602 naming the field.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { BASE, httpWorld, MCP_HEADERS, type HttpWorld } from '../reliability/http-world.ts';

describe('/mcp errors are JSON-RPC', () => {
  let w: HttpWorld;
  let key: string;
  const post = (body: string, headers: Record<string, string> = {}) =>
    w.app.fetch(
      new Request(`${BASE}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, Authorization: `Bearer ${key}`, ...headers }, body }),
    );
  const init = (protocolVersion: string) =>
    post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    );

  beforeAll(async () => {
    w = await httpWorld({ BINDERY_HTTP_MAX_BODY_BYTES: '2048' });
    key = w.seed.aliceKey;
  });
  afterAll(() => w.close());

  test('every 4xx on /mcp has a JSON-RPC body', async () => {
    const initBody = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const mcp = `${BASE}/mcp`;
    const cases: [string, Promise<Response>, number][] = [
      ['no key', w.app.fetch(new Request(mcp, { method: 'POST', headers: MCP_HEADERS, body: '{}' })), 401],
      ['bad Host', w.app.fetch(new Request(mcp, { method: 'POST', headers: { ...MCP_HEADERS, Host: 'evil.example' }, body: '{}' })), 403],
      [
        'bad Origin',
        w.app.fetch(new Request(mcp, { method: 'POST', headers: { ...MCP_HEADERS, Origin: 'https://evil.example' }, body: '{}' })),
        403,
      ],
      ['unknown session', post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { 'Mcp-Session-Id': 'nope' }), 404],
      ['OPTIONS without CORS', w.app.fetch(new Request(mcp, { method: 'OPTIONS' })), 405],
      [
        'PUT',
        w.app.fetch(new Request(mcp, { method: 'PUT', headers: { ...MCP_HEADERS, Authorization: `Bearer ${key}` }, body: '{}' })),
        405,
      ],
      ['no session header', post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })), 400],
      ['not JSON', post('{nope'), 400],
      ['too large', post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad: 'x'.repeat(4000) } })), 413],
      ['Accept without SSE', post(initBody, { Accept: 'application/json' }), 406],
      ['wrong Content-Type', post(initBody, { 'Content-Type': 'text/plain' }), 415],
    ];
    for (const [what, pending, status] of cases) {
      const res = await pending;
      const body = await res.json().catch(() => 'not JSON');
      expect({ what, status: res.status, body }).toEqual({
        what,
        status,
        body: { jsonrpc: '2.0', id: null, error: { code: expect.any(Number), message: expect.any(String) } },
      });
    }
  });

  test('batches: [] is -32600; refused after 2025-06-18 negotiation; answered as an array under 2025-03-26', async () => {
    const empty = await post('[]');
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ id: null, error: { code: -32600, message: 'Invalid Request: an empty batch' } });

    const recent = await init('2025-06-18');
    const session = recent.headers.get('mcp-session-id')!;
    const h = { 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '2025-06-18' };
    await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), h);
    const refused = await post(JSON.stringify([{ jsonrpc: '2.0', id: 2, method: 'ping' }]), h);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('2025-03-26') } });

    const old = await init('2025-03-26');
    const h2 = { 'Mcp-Session-Id': old.headers.get('mcp-session-id')!, 'Mcp-Protocol-Version': '2025-03-26' };
    await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), h2);
    const batch = await post(
      JSON.stringify([
        { jsonrpc: '2.0', id: 'a', method: 'ping' },
        { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
      ]),
      h2,
    );
    expect(batch.status).toBe(200);
    const answers = (await batch.json()) as { id: string }[];
    expect(answers.map((a) => a.id).sort()).toEqual(['a', 'b']);
  });

  test('malformed tools/call params are -32602 naming the field; an unknown tool too', async () => {
    const res = await init('2025-06-18');
    const h = { 'Mcp-Session-Id': res.headers.get('mcp-session-id')!, 'Mcp-Protocol-Version': '2025-06-18' };
    await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), h);
    const bad = await (await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 7 } }), h)).json();
    expect(bad).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: 'Invalid params: params.name: must be a string (got number)' },
    });
    const unknown = await (
      await post(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'nope', arguments: {} } }), h)
    ).json();
    expect(unknown).toMatchObject({ id: 4, error: { code: -32602, message: expect.stringContaining('no tool named "nope"') } });
  });
});
