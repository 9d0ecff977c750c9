// SIGTERM under write load, on real child processes: `bun run serve` and the stdio server stop taking
// work, answer what is in flight, close the database (WAL folded into the file) and exit 0, and every
// write a client saw acknowledged is in the database afterwards.
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createDatabase } from '../../db/index.ts';
import { createKey, ROOT, startServer } from '../../support/procs.ts';

async function stored(dbUrl: string, ids: string[]): Promise<Map<string, string>> {
  const database = createDatabase({ url: dbUrl });
  const rows = await database.db.all<{ id: string; content: string }>(
    sql`SELECT b.id AS id, v.content AS content FROM bindings b JOIN versions v ON v.binding_id = b.id AND v.number = b.current_version WHERE b.deleted_at IS NULL`,
  );
  database.close();
  const want = new Set(ids);
  return new Map(rows.filter((r) => want.has(r.id)).map((r) => [r.id, r.content]));
}

function walBytes(path: string): number {
  return existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0;
}

describe('SIGTERM', () => {
  test('bun run serve: in-flight writes answered, acknowledged writes kept, WAL checkpointed, exit 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bindery-sigterm-'));
    const path = join(dir, 'b.db');
    const env = { BINDERY_DB_URL: `file:${path}`, BINDERY_TOOL_MODE: 'eager' };
    const key = await createKey(env, 'writer');
    const server = await startServer(env);
    const acked = new Map<string, string>();
    let signalled = false;
    let ackedAfterSignal = 0;
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const content = `# Write ${w}-${i}\n\nbody ${w}-${i} ${'x'.repeat(200)}\n`;
        try {
          const res = await fetch(`${server.url}/api/bindings`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ name: `Write ${w}-${i}`, content, summary: `w${w} i${i}` }),
          });
          if (res.status !== 201) throw new Error(`status ${res.status}`);
          const body = (await res.json()) as { binding: { id: string } };
          acked.set(body.binding.id, content);
          if (signalled) ackedAfterSignal++;
        } catch {
          if (signalled) return; // refused once stopped: never acknowledged
          await Bun.sleep(5);
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    await Bun.sleep(1_000);
    const before = acked.size;
    const sentAt = performance.now();
    server.proc.kill('SIGTERM');
    signalled = true;
    const code = await Promise.race([server.proc.exited, Bun.sleep(15_000).then(() => 'timeout')]);
    const tookMs = performance.now() - sentAt;
    stop = true;
    await Promise.all(workers);
    expect(code).toBe(0);
    expect(tookMs).toBeLessThan(12_000);
    expect(before).toBeGreaterThan(20);
    expect(server.stderr()).toContain('SIGTERM: finishing in-flight requests');
    const kept = await stored(`file:${path}`, [...acked.keys()]);
    expect(kept.size).toBe(acked.size);
    for (const [id, content] of acked) expect(kept.get(id)).toBe(content);
    expect(walBytes(path)).toBe(0);
    console.log(`serve: ${acked.size} writes acknowledged (${ackedAfterSignal} after SIGTERM), all kept; exit in ${Math.round(tookMs)} ms`);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  test('stdio: requests read before SIGTERM are answered, acknowledged writes kept, exit 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bindery-sigterm-stdio-'));
    const path = join(dir, 'b.db');
    const proc = Bun.spawn(['bun', 'adapters/stdio.ts'], {
      cwd: ROOT,
      env: { ...process.env, BINDERY_DB_URL: `file:${path}`, BINDERY_TOOL_MODE: 'eager', BINDERY_USER: 'writer' },
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const send = (m: unknown) => proc.stdin.write(`${JSON.stringify(m)}\n`);
    const answers = new Map<number, { result?: { structuredContent?: { binding?: { id: string } }; isError?: boolean } }>();
    const contents = new Map<number, string>();
    let buf = '';
    const decoder = new TextDecoder();
    const reading = (async () => {
      const reader = proc.stdout.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += decoder.decode(value);
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (line.trim()) {
            const m = JSON.parse(line);
            if (typeof m.id === 'number') answers.set(m.id, m);
          }
        }
      }
    })();
    send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'sigterm', version: '1' } },
    });
    for (let t = 0; !answers.has(0) && t < 400; t++) await Bun.sleep(50);
    expect(answers.has(0)).toBe(true);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const N = 300;
    for (let id = 1; id <= N; id++) {
      const content = `# Stdio ${id}\n\nbody ${id}\n`;
      contents.set(id, content);
      send({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'create_binding', arguments: { name: `Stdio ${id}`, content, summary: `s${id}` } },
      });
    }
    await proc.stdin.flush();
    for (let t = 0; answers.size < 20 && t < 400; t++) await Bun.sleep(10);
    proc.kill('SIGTERM');
    const code = await Promise.race([proc.exited, Bun.sleep(15_000).then(() => 'timeout')]);
    await reading;
    expect(code).toBe(0);
    const acked = [...answers].filter(([id, a]) => id > 0 && a.result && !a.result.isError);
    expect(acked.length).toBeGreaterThanOrEqual(20);
    // Answers are whole lines and every one acknowledges a write that is in the file.
    const ids = acked.map(([, a]) => a.result!.structuredContent!.binding!.id);
    const kept = await stored(`file:${path}`, ids);
    expect(kept.size).toBe(ids.length);
    for (const [id, a] of acked) expect(kept.get(a.result!.structuredContent!.binding!.id)).toBe(contents.get(id)!);
    expect(buf).toBe('');
    expect(walBytes(path)).toBe(0);
    console.log(`stdio: ${acked.length}/${N} pipelined writes answered before exit, all kept`);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
