// Every write path keeps the same field limits (name ≤ 200, summary ≤ 600, key
// points ≤ 8 of ≤ 160): the tools, REST, the web form, the binding services themselves, and import of
// either format (which cuts and says so). Restore is covered in tests/db/dump-validate.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createBinding, updateBinding } from '../../core/services/bindings.ts';
import { importDocument } from '../../core/services/import.ts';
import { renderExport } from '../../core/services/export-format.ts';
import { LIMITS } from '../../core/services/binding-fields.ts';
import { importFolder } from '../../adapters/cli/import.ts';
import { BinderyError } from '../../core/errors.ts';
import { call, textOf } from '../helpers.ts';
import { webWorld, type Browser, type WebWorld } from '../web/web-world.ts';
import { createHttpApp } from '../../core/http/app.ts';
import { createApiKey } from '../../core/http/auth.ts';
import { createBinderyServer } from '../../core/index.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';

const HUMAN = { source: 'human', model: null } as const;
const LONG_NAME = 'word '.repeat(6_120).trim(); // 30,599 characters, as in the issue
const MANY_POINTS = Array.from({ length: 3_000 }, (_, i) => `point ${i}`);
const LONG_POINT = 'k'.repeat(400);
const LONG_SUMMARY = 's '.repeat(700);

let w: WebWorld;
let alice: Browser;
let dir: string;

beforeAll(async () => {
  w = await webWorld();
  alice = await w.signIn('alice');
  await w.deps.tokens.load();
  dir = mkdtempSync(join(tmpdir(), 'bindery-limits-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The longest name, summary and key point list stored in any version, and the most key points. */
async function widest() {
  return (await w.deps.db.get<{ name: number; summary: number; points: number; point: number }>(sql`
    SELECT max(length(name)) AS name, max(length(summary)) AS summary, max(json_array_length(key_points)) AS points,
      (SELECT max(length(j.value)) FROM versions v2, json_each(v2.key_points) j) AS point FROM versions`))!;
}
const withinLimits = async () => {
  const m = await widest();
  expect(m.name ?? 0).toBeLessThanOrEqual(LIMITS.name);
  expect(m.summary ?? 0).toBeLessThanOrEqual(LIMITS.summary);
  expect(m.points ?? 0).toBeLessThanOrEqual(LIMITS.keyPoints);
  expect(m.point ?? 0).toBeLessThanOrEqual(LIMITS.keyPoint);
};

describe('over-limit fields are refused or cut on every write path', () => {
  test('the binding services (the door every path goes through) refuse, naming the field and the rule', async () => {
    const base = { name: 'ok', summary: 'ok', content: 'body' };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: LONG_NAME }, /^name: must be at most 200 characters/],
      [{ summary: LONG_SUMMARY }, /^summary: must be at most 600 characters/],
      [{ keyPoints: MANY_POINTS }, /^keyPoints: must have at most 8 items/],
      [{ keyPoints: ['fine', LONG_POINT] }, /^keyPoints\.1: each must be at most 160 characters/],
      [{ name: '   ' }, /^name: must not be empty/],
    ];
    for (const [over, message] of cases) {
      const e = await createBinding(w.deps, alice.caller, { ...base, ...over } as never, HUMAN).catch((x) => x);
      expect(e).toBeInstanceOf(BinderyError);
      expect([e.code, e.message]).toEqual(['INVALID_INPUT', expect.stringMatching(message)]);
    }
    const row = await createBinding(w.deps, alice.caller, base, HUMAN);
    const e = await updateBinding(w.deps, alice.caller, row.bindingId, { keyPoints: MANY_POINTS }, HUMAN).catch((x) => x);
    expect(String(e.message)).toMatch(/^keyPoints: must have at most 8 items/);
    await withinLimits();
  });

  test('MCP tools', async () => {
    const server = createBinderyServer(w.deps, { caller: alice.caller });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    const client = new Client({ name: 'limits', version: '1' });
    await client.connect(a);
    const r = await call(client, 'create_binding', { name: LONG_NAME, summary: 's', content: 'c' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/name.*at most 200 characters/);
    await client.close();
    await withinLimits();
  });

  test('REST', async () => {
    const key = (await createApiKey(w.deps.db, alice.caller.id, Date.now())).key;
    const app = createHttpApp({ deps: w.deps });
    const res = await app.fetch(
      new Request('http://localhost:8787/api/bindings', {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'n', summary: 's', content: 'c', keyPoints: MANY_POINTS }),
      }),
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/keyPoints.*at most 8 items/);
    await app.close();
    await withinLimits();
  });

  test('the web form', async () => {
    const res = await alice.post('/new', { space: 'alice', name: 'n', summary: LONG_SUMMARY, content: 'c' });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/summary.*at most 600 characters/);
    await withinLimits();
  });

  test('import of an export-format file: every field cut to its limit at a word, and the import says so', async () => {
    const text = renderExport({
      id: 'bnd_0000000000000000',
      name: LONG_NAME,
      summary: LONG_SUMMARY,
      keyPoints: [...MANY_POINTS.slice(0, 20), LONG_POINT],
      version: 1,
      source: 'human',
      model: null,
      updatedAt: '2026-01-01T00:00:00.000Z',
      content: '# Body\n\ntext\n',
    });
    const out = await importDocument(w.deps, alice.caller, { sourcePath: 'huge.md', bytes: new TextEncoder().encode(text) });
    expect(out.status).toBe('created');
    if (out.status !== 'created') return;
    expect(out.warnings).toEqual([
      'keyPoints: 21 given; kept the first 8 (the limit)',
      'name was 30,599 characters; cut to 200 (the limit)',
      'summary was 1,400 characters; cut to 600 (the limit)',
    ]);
    await withinLimits();
    // …and one over-long key point among eight is cut too, as is an over-long model.
    const one = renderExport({
      id: '',
      name: 'One long point',
      summary: 's',
      keyPoints: [LONG_POINT],
      version: 1,
      source: 'llm',
      model: 'm'.repeat(300),
      updatedAt: '',
      content: 'x',
    });
    const r = await importDocument(w.deps, alice.caller, { sourcePath: 'one.md', bytes: new TextEncoder().encode(one) });
    expect(r.status === 'created' && r.warnings).toEqual([
      'model was 300 characters; cut to 120 (the limit)',
      'keyPoints.0 was 400 characters; cut to 160 (the limit)',
    ]);
    const stored = await w.deps.db.get<{ source: string; model: string }>(
      sql`SELECT source, model FROM versions WHERE name = 'One long point'`,
    );
    expect(stored).toEqual({ source: 'llm', model: `${'m'.repeat(119)}…` });
    await withinLimits();
  });

  test('an export-format file whose name is empty is skipped with the field and the rule', async () => {
    const text = renderExport({
      id: '',
      name: ' ',
      summary: 's',
      keyPoints: [],
      version: 1,
      source: 'human',
      model: null,
      updatedAt: '',
      content: 'x',
    });
    expect(await importDocument(w.deps, alice.caller, { sourcePath: 'empty-name.md', bytes: new TextEncoder().encode(text) })).toEqual({
      status: 'skipped',
      reason: 'name: must not be empty',
    });
  });

  test('Markdown import (front matter over the limits) through the folder import', async () => {
    const folder = join(dir, 'md');
    mkdirSync(folder);
    writeFileSync(
      join(folder, 'big.md'),
      `---\ntitle: ${LONG_NAME}\nsummary: ${LONG_SUMMARY}\nkeyPoints:\n${MANY_POINTS.slice(0, 30)
        .map((p) => `  - ${p}`)
        .join('\n')}\n  - ${LONG_POINT}\n---\n# Body\n`,
    );
    const counts = await importFolder(w.deps, alice.caller, folder, () => {});
    expect(counts.created).toBe(1);
    await withinLimits();
  });
});
