// The optional embedding re-ranker (core/search/embeddings.ts): the wire code against a local stand-in of an OpenAI-compatible
// /v1/embeddings endpoint serving fixed vectors (no model can be downloaded here). Vectors are stored in
// libSQL's F32_BLOB layout, re-rank BM25's candidates, never move a strong lexical match, and a
// provider that is down fails neither writes nor searches.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { createTestWorld, ok, type TestWorld } from '../helpers.ts';
import { createEmbeddingProvider, embeddingsEndpoint } from '../../core/search/embeddings.ts';
import { embedMissing } from '../../core/services/embed.ts';
import { bytesVector } from '../../db/store/vectors.ts';

// The stand-in "model": one dimension per concept, so texts about the same thing in other words meet.
const CONCEPTS = [
  ['quit', 'exit', 'exits', 'signal', 'sigint', 'terminate', 'shutdown', 'ctrl'],
  ['colour', 'color', 'colors', 'ansi', 'terminal'],
  ['retry', 'retries', 'again', 'backoff', 'flaky', 'failure'],
  ['cleanup', 'teardown', 'hook', 'hooks', 'handler'],
];
function standInVector(text: string): number[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  const v = CONCEPTS.map((c) => words.filter((w) => c.includes(w)).length);
  // A small constant dimension so that no vector is all zeros.
  return [...v, 0.1];
}

let server: ReturnType<typeof Bun.serve>;
let down = false;
const requests: { auth: string | null; model: string; inputs: number }[] = [];
beforeAll(() => {
  server = Bun.serve({
    port: 0,
    async fetch(req) {
      if (new URL(req.url).pathname !== '/v1/embeddings' || req.method !== 'POST') return new Response('not found', { status: 404 });
      if (down) return new Response('overloaded', { status: 503 });
      const body = (await req.json()) as { model: string; input: string[] };
      requests.push({ auth: req.headers.get('authorization'), model: body.model, inputs: body.input.length });
      // Out of order on purpose: clients must place vectors by `index`.
      const data = body.input.map((t, index) => ({ object: 'embedding', index, embedding: standInVector(t) })).reverse();
      return Response.json({ object: 'list', data, model: body.model });
    },
  });
});
afterAll(() => server.stop(true));

const base = () => `http://127.0.0.1:${server.port}/v1`;

describe('embedding provider wire', () => {
  test('posts model and inputs with the bearer key, places vectors by index, normalises them', async () => {
    const p = createEmbeddingProvider({ url: base(), model: 'stand-in', key: 'sk-test', weight: 0.5 });
    requests.length = 0;
    const [a, b] = await p.embed(['the program exits on ctrl c', 'ansi colors']);
    expect(requests).toEqual([{ auth: 'Bearer sk-test', model: 'stand-in', inputs: 2 }]);
    expect(a![0]).toBeGreaterThan(0.9);
    expect(b![1]).toBeGreaterThan(0.9);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 5);
    expect(embeddingsEndpoint('https://api.openai.com/v1')).toBe('https://api.openai.com/v1/embeddings');
    expect(embeddingsEndpoint('http://localhost:11434/v1/embeddings')).toBe('http://localhost:11434/v1/embeddings');
  });

  test('a failing provider is an error naming its status', async () => {
    down = true;
    try {
      await expect(createEmbeddingProvider({ url: base(), model: 'm', weight: 0.5 }).embed(['x'])).rejects.toThrow('503');
    } finally {
      down = false;
    }
  });
});

describe('search with embeddings', () => {
  let plain: TestWorld;
  let semantic: TestWorld;
  const docs = [
    {
      name: 'exit-hook',
      summary: 'Run a function when the program exits or gets a signal.',
      content: '# exit-hook\n\nRegister teardown code that runs on exit, SIGINT and SIGTERM.\n',
    },
    {
      name: 'Program notes',
      summary: 'Notes on writing code for a program.',
      content: '# Program\n\nHow to run code in a program, and when to write more code. Run it about twice.\n',
    },
    {
      name: 'Runner',
      summary: 'Run code in a program quickly.',
      content: '# Runner\n\nRun program code. When code runs, the program is about done.\n',
    },
    {
      name: 'Kettle descaling guide',
      summary: 'Descale a kettle with vinegar.',
      content: '# Kettle\n\nLimescale builds up; descale the kettle with vinegar and water, then rinse.\n',
    },
    {
      name: 'Colour output',
      summary: 'ANSI colour codes for the terminal.',
      content: '# Colour\n\nPrint ANSI colour in the terminal; the kettle of colours.\n',
    },
  ];
  const ids = new Map<string, string>();
  beforeAll(async () => {
    plain = await createTestWorld();
    semantic = await createTestWorld({
      BINDERY_EMBEDDINGS_URL: base(),
      BINDERY_EMBEDDINGS_MODEL: 'stand-in',
      BINDERY_EMBEDDINGS_WEIGHT: '1.5',
    });
    for (const w of [plain, semantic]) {
      const c = await w.connect('alice');
      for (const d of docs) ids.set(`${w === plain ? 'p' : 's'}:${d.name}`, (await ok(c, 'create_binding', d)).binding.id);
    }
  });
  afterAll(() => {
    plain.close();
    semantic.close();
  });

  test('writes embed what they write, in the F32_BLOB layout libSQL reads', async () => {
    const rows = await semantic.db.all<{ id: string; dims: number; v: Uint8Array; d: number }>(
      sql`SELECT binding_id AS id, dims, vector AS v, vector_distance_cos(vector, vector) AS d FROM binding_vectors`,
    );
    expect(rows.length).toBe(docs.length);
    for (const r of rows) {
      expect(r.dims).toBe(CONCEPTS.length + 1);
      expect(bytesVector(r.v).length).toBe(r.dims);
      expect(r.d).toBeCloseTo(0, 5);
    }
    expect(await plain.db.all(sql`SELECT * FROM binding_vectors`)).toEqual([]);
  });

  test('a question in other words than the document is re-ranked to its answer', async () => {
    const query = 'run cleanup code when my program is about to quit';
    const before = await ok(await plain.connect('alice'), 'search_bindings', { query, limit: 5 });
    const after = await ok(await semantic.connect('alice'), 'search_bindings', { query, limit: 5 });
    const rank = (r: { results: { id: string }[] }, id: string) => r.results.findIndex((h) => h.id === id) + 1;
    expect(rank(before, ids.get('p:exit-hook')!)).not.toBe(1);
    expect(rank(after, ids.get('s:exit-hook')!)).toBe(1);
  });

  test('a strong lexical match stays first whatever the vectors say', async () => {
    // The stand-in puts "kettle" near nothing and "colours" near the colour doc, which also says "kettle".
    const found = await ok(await semantic.connect('alice'), 'search_bindings', { query: 'descale the kettle with vinegar', limit: 5 });
    expect(found.results[0].id).toBe(ids.get('s:Kettle descaling guide'));
  });

  test('a provider that is down fails neither a write nor a search; embed fills the vector later', async () => {
    const c = await semantic.connect('alice');
    down = true;
    let made: string;
    try {
      made = (
        await ok(c, 'create_binding', {
          name: 'signal-exit',
          summary: 'When a process exits, run a hook.',
          content: '# signal-exit\n\nFire an event on exit.\n',
        })
      ).binding.id;
      const found = await ok(c, 'search_bindings', { query: 'program quit cleanup', limit: 5 });
      expect(found.results.length).toBeGreaterThan(0);
    } finally {
      down = false;
    }
    const missing = async () => (await semantic.db.all(sql`SELECT 1 FROM binding_vectors WHERE binding_id = ${made}`)).length;
    expect(await missing()).toBe(0);
    expect(await embedMissing({ db: semantic.db, config: semantic.config, now: Date.now })).toBe(1);
    expect(await missing()).toBe(1);
    // An update makes the vector stale; the write embeds the new version.
    await ok(c, 'update_binding', { id: made, content: '# signal-exit\n\nFire an event on exit, even on SIGINT.\n' });
    expect(await embedMissing({ db: semantic.db, config: semantic.config, now: Date.now })).toBe(0);
  });
});
