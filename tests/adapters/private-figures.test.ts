// The attacker's test: nothing another user keeps private may change a figure, hint,
// suggestion, count or order that a caller sees. Alice reads her own notes through every face (MCP
// over HTTP: search at every tier, paged and budgeted, query reads, lists, completions; REST search and
// lists; the web app's search and lists); Bob then adds 0 → 3 private documents holding a probe word
// Alice's notes hold too. Every answer Alice gets must stay byte for byte what it was.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApiKey } from '../../core/http/auth.ts';
import { BINDING_URI_TEMPLATE } from '../../core/mcp/uri.ts';
import { createBinding } from '../../core/services/bindings.ts';
import { createSet } from '../../core/services/sets.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import type { Caller } from '../../core/context.ts';
import { webWorld, type Browser, type WebWorld } from '../web/web-world.ts';

const HUMAN = { source: 'human' as const, model: null };
const PROBE = 'zeolite';

/** Alice's notes: several hold the probe word (one in its name), so its weight shapes her figures. */
const NOTES: [name: string, summary: string, keyPoints: string[], body: string][] = [
  [
    'Kettle descaling',
    'Removing limescale from a kettle',
    ['Vinegar soak', 'Citric acid'],
    'Limescale builds up in a kettle. Soak in vinegar, rinse twice. Citric acid works faster on thick limescale.',
  ],
  [
    'Zeolite water filters',
    'How zeolite softens hard water',
    ['Ion exchange', 'Regeneration with brine'],
    'A zeolite bed swaps calcium for sodium. Regenerate the zeolite with brine when the water turns hard again.',
  ],
  [
    'Water hardness',
    'Calcium and magnesium in tap water',
    ['Hardness scales', 'Testing strips'],
    'Hard water holds calcium and magnesium. Softeners use resin or zeolite; kettles show limescale first.',
  ],
  [
    'Teapot care',
    'Brewing and cleaning a teapot',
    ['Warm the pot', 'No soap'],
    'Warm the pot before brewing. Never use soap on an unglazed teapot; rinse with hot water from the kettle.',
  ],
  [
    'Aquarium chemistry',
    'Ammonia, nitrite and nitrate in a tank',
    ['Cycling a tank', 'Zeolite pouches'],
    'Zeolite pouches bind ammonia in a new tank. Calcium matters for snails; test hardness weekly.',
  ],
  [
    'Cat litter',
    'Clumping versus crystal litter',
    ['Odour control', 'Dust'],
    'Some litters mix zeolite into clay for odour control. Clumping clay is cheap; crystal litter lasts longer.',
  ],
  [
    'Garden soil',
    'Improving clay soil',
    ['Compost', 'Drainage'],
    'Clay soil drains badly. Compost, grit and a little zeolite hold water and nutrients for roots.',
  ],
  [
    'Coffee brewing',
    'Water temperature and grind',
    ['Grind size', 'Soft water'],
    'Coffee tastes flat with very soft water and chalky with hard water; calcium helps extraction.',
  ],
];

let world: WebWorld;
let alice: Caller;
let bob: Caller;
let key: string;
let mcp: Client;
let browser: Browser;
let setId: string;
let ids: string[];

const api = (path: string) => world.app.fetch(new Request(`${world.base}${path}`, { headers: { Authorization: `Bearer ${key}` } }));

beforeAll(async () => {
  world = await webWorld();
  alice = await ensureCaller(world.deps, 'alice');
  bob = await ensureCaller(world.deps, 'bob');
  ids = [];
  for (const [name, summary, keyPoints, body] of NOTES) {
    ids.push(
      (await createBinding(world.deps, alice, { name, summary, keyPoints, content: `# ${name}\n\n${body}\n\n## More\n\n${body}\n` }, HUMAN))
        .bindingId,
    );
  }
  setId = (await createSet(world.deps, alice, { name: 'Water', bindingIds: ids.slice(0, 5) })).id;
  key = (await createApiKey(world.database.db, alice.id, Date.now())).key;
  mcp = new Client({ name: 'probe', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${world.base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
      fetch: (url, init) => world.app.fetch(new Request(url, init)),
    }),
  );
  browser = await world.signIn('alice');
});
afterAll(async () => {
  await mcp.close();
  await world.close();
});

/** The queries an attacker would try: the probe alone, with a word of Alice's, with words nobody uses, misspelt. */
const QUERIES = [
  PROBE,
  `${PROBE} calcium`,
  `calcium ${PROBE} limescale`,
  `${PROBE} zymurgy hydrometer`,
  'zeolites',
  'zeolitic',
  'hardness zymurgy',
  'water',
];

/** Everything Alice can see, keyed by what she asked. */
async function everythingAliceSees(): Promise<Map<string, string>> {
  const seen = new Map<string, string>();
  const tool = async (name: string, args: Record<string, unknown>) => {
    const r = await mcp.callTool({ name, arguments: args });
    seen.set(`${name} ${JSON.stringify(args)}`, JSON.stringify(r));
    return r;
  };
  for (const query of QUERIES) {
    for (const tier of ['0', '1', '1.5', '2']) {
      await tool('search_bindings', { query, tier });
      await tool('search_bindings', { query, tier, maxTokens: 120 });
      const first = await tool('search_bindings', { query, tier, limit: 2 });
      const next = (first.structuredContent as { pagination?: { nextCursor?: string } } | undefined)?.pagination?.nextCursor;
      if (next) await tool('search_bindings', { query, tier, limit: 2, cursor: next });
    }
    await tool('get_bindings', { ids, query, maxTokens: 400 });
    await tool('get_set_context', { setId, query, maxTokens: 400 });
    seen.set(`REST ${query}`, await (await api(`/api/bindings?q=${encodeURIComponent(query)}`)).text());
    seen.set(`web ${query}`, (await browser.page(`/?q=${encodeURIComponent(query)}`)).html);
  }
  for (const name of ['list_bindings', 'list_sets', 'list_spaces']) await tool(name, {});
  await tool('list_bindings', { tier: '0' });
  for (const path of ['/api/bindings', '/api/sets']) seen.set(`REST ${path}`, await (await api(path)).text());
  for (const path of ['/', '/sets', `/sets/${setId}`]) seen.set(`web ${path}`, (await browser.page(path)).html);
  await tool('whoami', {});
  seen.set('resources/list', JSON.stringify(await mcp.listResources()));
  const template = { type: 'ref/resource' as const, uri: BINDING_URI_TEMPLATE };
  for (const value of ['', 'b', 'a', 'z']) {
    seen.set(`complete space ${value}`, JSON.stringify(await mcp.complete({ ref: template, argument: { name: 'space', value } })));
    seen.set(
      `complete binding ${value}`,
      JSON.stringify(
        await mcp.complete({ ref: template, argument: { name: 'binding', value }, context: { arguments: { space: 'alice' } } }),
      ),
    );
  }
  return seen;
}

/**
 * An answer with its hits' order taken out: lines sorted, results by id; under a budget, which hits
 * were packed (that follows the order) too. What is left are the figures: counts, totals, hints, words.
 */
function orderFree(answer: string): string {
  const sortLines = (t: string) => t.split('\n').sort().join('\n');
  if (!answer.startsWith('{')) return sortLines(answer.replace(/<li>/g, '\n<li>'));
  const r = JSON.parse(answer);
  const data = r.structuredContent ?? r;
  if (data.budget) {
    delete data.budget;
    delete r._meta.context.budget;
    delete r._meta.context.response;
    data.results = [];
    r.content = [];
  }
  for (const c of r.content ?? []) c.text = sortLines(c.text);
  data.results?.sort((a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id));
  return JSON.stringify(r);
}

describe("another user's private documents", () => {
  test(`change no figure, hint, suggestion or count Alice sees as Bob adds 0 → 3 private documents holding "${PROBE}"`, async () => {
    const before = await everythingAliceSees();
    // The probes hit: Alice's searches find her notes, at least one says a match is weak, one offers words.
    expect(before.get(`search_bindings ${JSON.stringify({ query: `${PROBE} calcium`, tier: '1' })}`)).toContain('Zeolite water filters');
    expect([...before.values()].some((v) => v.includes('"share"'))).toBe(true);
    expect([...before.values()].some((v) => v.includes('"tryWords":["'))).toBe(true);
    for (let n = 1; n <= 3; n++) {
      await createBinding(
        world.deps,
        bob,
        {
          name: `${PROBE} ${PROBE} notes ${n}`,
          summary: `Private ${PROBE} notes`,
          keyPoints: [`${PROBE} grades`, 'zeolitic tuff'],
          content: `# ${PROBE}\n\n${`${PROBE} calcium hydrometer zymurgy. `.repeat(20 * n)}\n`,
        },
        HUMAN,
      );
      const after = await everythingAliceSees();
      const changed = [...before.keys()].filter((k) => after.get(k) !== before.get(k));
      // FTS5's bm25() weighs words by index-wide counts: the order of Alice's hits for a query of several
      // words may move (docs/security.md, "What search can reveal"); nothing else may.
      const reordered = changed.filter((k) => orderFree(after.get(k)!) === orderFree(before.get(k)!));
      expect({ n, changed: changed.filter((k) => !reordered.includes(k)) }).toEqual({ n, changed: [] });
      expect(reordered.every((k) => /^(search_bindings|REST|web) .*zeolite calcium/.test(k))).toBe(true);
    }
  }, 30_000);
});
