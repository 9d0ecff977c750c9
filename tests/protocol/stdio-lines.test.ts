// The real stdio server (`bun adapters/stdio.ts`, a child process) fed raw lines: garbage, invalid
// messages, malformed params, unknown tools, batches, and a line over 32 MiB. Each gets its JSON-RPC
// error and the server keeps serving.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from '../stdio-client.ts';

interface Child {
  send(line: string): void;
  next(): Promise<any>;
  close(): Promise<number>;
}

async function spawnStdio(protocolVersion: string): Promise<Child> {
  const dir = mkdtempSync(join(tmpdir(), 'bindery-lines-'));
  const proc = Bun.spawn([process.execPath, join(REPO, 'adapters', 'stdio.ts')], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, BINDERY_DB_URL: `file:${join(dir, 'b.db')}`, BINDERY_TOOL_MODE: 'eager' },
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'ignore',
  });
  const lines: any[] = [];
  const waiters: ((v: any) => void)[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    const reader = proc.stdout.getReader();
    for (;;) {
      const { done, value: chunk } = await reader.read();
      if (done) break;
      buffered += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const value = JSON.parse(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        const w = waiters.shift();
        if (w) w(value);
        else lines.push(value);
      }
    }
  })();
  const child: Child = {
    send(line) {
      proc.stdin.write(`${line}\n`);
      void proc.stdin.flush();
    },
    next() {
      if (lines.length) return Promise.resolve(lines.shift());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no answer within 20 s')), 20_000);
        waiters.push((v) => {
          clearTimeout(timer);
          resolve(v);
        });
      });
    },
    async close() {
      proc.stdin.end();
      proc.kill();
      const code = await proc.exited;
      rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
  child.send(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'lines', version: '1' } },
    }),
  );
  expect((await child.next()).result.protocolVersion).toBe(protocolVersion);
  child.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return child;
}

const ping = (id: number | string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

describe('stdio under protocol 2025-06-18', () => {
  let c: Child;
  beforeAll(async () => {
    c = await spawnStdio('2025-06-18');
  });
  afterAll(() => c.close());

  test('a line that is not JSON gets -32700 with id null, and the server keeps serving', async () => {
    c.send('this is not json {');
    expect(await c.next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringContaining('Parse error') } });
    c.send(ping(1));
    expect(await c.next()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  test('JSON that is not a JSON-RPC message gets -32600 (id null, or its id when it has one)', async () => {
    c.send('{"hello":"world"}');
    expect(await c.next()).toMatchObject({ id: null, error: { code: -32600 } });
    c.send('42');
    expect(await c.next()).toMatchObject({ id: null, error: { code: -32600 } });
    c.send('{"jsonrpc":"2.0","id":7}');
    expect(await c.next()).toMatchObject({ id: 7, error: { code: -32600 } });
  });

  test('batches are refused under 2025-06-18, and [] always', async () => {
    c.send('[]');
    expect(await c.next()).toMatchObject({ id: null, error: { code: -32600, message: 'Invalid Request: an empty batch' } });
    c.send(`[${ping(2)}]`);
    expect(await c.next()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('2025-03-26') } });
  });

  test('malformed params get -32602 naming the field, not a zod dump; so does an unknown tool', async () => {
    c.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { arguments: {} } }));
    const missing = await c.next();
    expect(missing).toMatchObject({ id: 3, error: { code: -32602, message: 'Invalid params: params.name: is required (string)' } });
    c.send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'whoami', arguments: 5 } }));
    const wrong = await c.next();
    expect(wrong).toMatchObject({ id: 4, error: { code: -32602, message: expect.stringContaining('params.arguments: must be') } });
    expect(String(wrong.error.message).includes('"code"')).toBe(false);
    c.send(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'resources/read', params: {} }));
    expect(await c.next()).toMatchObject({ id: 5, error: { code: -32602, message: 'Invalid params: params.uri: is required (string)' } });
    c.send(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }));
    expect(await c.next()).toMatchObject({ id: 6, error: { code: -32602, message: expect.stringContaining('no_such_tool') } });
  });

  test('a line over 32 MiB is skipped and answered -32600 with its id; the server keeps serving', async () => {
    const huge = JSON.stringify({
      method: 'tools/call',
      params: { name: 'create_binding', arguments: { name: 'x', summary: 's', content: 'a'.repeat(33 * 2 ** 20) } },
      jsonrpc: '2.0',
      id: 99,
    });
    c.send(huge);
    expect(await c.next()).toMatchObject({ id: 99, error: { code: -32600, message: expect.stringContaining('over the') } });
    c.send(ping(8));
    expect(await c.next()).toEqual({ jsonrpc: '2.0', id: 8, result: {} });
  }, 60_000);
});

describe('stdio under protocol 2025-03-26', () => {
  let c: Child;
  beforeAll(async () => {
    c = await spawnStdio('2025-03-26');
  });
  afterAll(() => c.close());

  test('a batch is answered as one array; [] is still -32600', async () => {
    c.send(
      `[${ping('a')},${JSON.stringify({ jsonrpc: '2.0', id: 'b', method: 'tools/list' })},{"jsonrpc":"2.0","method":"notifications/initialized"}]`,
    );
    const answer = await c.next();
    expect(Array.isArray(answer)).toBe(true);
    expect(answer.map((m: { id: string }) => m.id).sort()).toEqual(['a', 'b']);
    expect(answer.find((m: { id: string }) => m.id === 'b').result.tools).toHaveLength(29);
    c.send('[]');
    expect(await c.next()).toMatchObject({ id: null, error: { code: -32600 } });
  });
});
