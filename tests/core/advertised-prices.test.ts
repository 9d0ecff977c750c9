// Every price Bindery advertises for budgeting equals what the matching read
// costs. Each advertised figure (tool text, structuredContent, _meta, web pages) is checked against a
// real response of the read it prices: `_meta.context.response.tokens` of that read, or the portion
// its documentation names (a section read is the card plus the section; a set's total is its items).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApiKey } from '../../core/http/auth.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { contextOf, ok, textOf } from '../helpers.ts';
import { webWorld, type Browser, type WebWorld } from '../web/web-world.ts';

let world: WebWorld;
let mcp: Client;
let browser: Browser;
const ids: string[] = [];
let setId: string;
let key: string;

const TIERS = ['1', '1.5', '2'] as const;
const section = (title: string, sentence: string, n: number) => `## ${title}\n\n${`${sentence} `.repeat(n)}\n\n`;

beforeAll(async () => {
  world = await webWorld();
  const alice = await ensureCaller(world.deps, 'alice');
  key = (await createApiKey(world.database.db, alice.id, Date.now())).key;
  mcp = new Client({ name: 'prices', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${world.base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
      fetch: (url, init) => world.app.fetch(new Request(url, init)),
    }),
  );
  browser = await world.signIn('alice');
  const docs = [
    {
      name: 'Kettle guide',
      summary: 'Installing and descaling a kitchen kettle',
      keyPoints: ['Install', 'Descale'],
      content: `# Kettle guide\n\nIntro.\n\n${section('Install', 'Set the kettle on a flat surface.', 30)}${section('Descale', 'Soak the element in vinegar overnight.', 40)}`,
    },
    // Many sections: the outline is bounded and sums up the rest.
    {
      name: 'Long manual',
      summary: 'Every part of the kitchen machine',
      keyPoints: ['Parts'],
      content: Array.from({ length: 40 }, (_, i) => section(`Part ${i} of the machine`, `Part ${i} turns the crank.`, 8)).join(''),
    },
    { name: 'Short note', summary: 'A short note on kitchen water', keyPoints: [], content: '# Note\n\nHard water leaves limescale.\n' },
  ];
  for (const d of docs) ids.push((await ok(mcp, 'create_binding', d)).binding.id);
  setId = (await ok(mcp, 'create_set', { name: 'Kitchen', bindingIds: ids })).set.id;
});
afterAll(async () => {
  await mcp.close();
  await world.close();
});

/** Exact tokens of a real read's whole answer. */
async function cost(name: string, args: Record<string, unknown>): Promise<number> {
  return contextOf((await ok(mcp, name, args))._result).response.tokens;
}

describe('advertised prices', () => {
  test('every figure advertised for budgeting equals the tokens of the read it prices', async () => {
    const seen: { what: string; advertised: number; real: number }[] = [];
    const check = (what: string, advertised: number, real: number) => seen.push({ what, advertised, real });
    const count = (text: string) => world.deps.tokens.count(text);

    // What each read really costs: a binding at each tier, a section (the card plus the section).
    const read = new Map<string, Record<string, number>>();
    for (const id of ids) {
      const at: Record<string, number> = {};
      for (const t of ['0', ...TIERS]) at[t] = await cost('get_binding', { id, tier: t });
      read.set(id, at);
    }
    let restChecked = false;
    const sectionCost = async (id: string, s: string) => await cost('get_binding', { id, section: s });

    for (const id of ids) {
      const two = await ok(mcp, 'get_binding', { id, tier: '2' });
      const content = two.binding.content as string;
      // contentTokenCount: the tokens of the content itself (card, tier-0 line, list views, text URL).
      check(`${id} contentTokenCount`, two.binding.contentTokenCount, count(content));
      const zero = textOf((await ok(mcp, 'get_binding', { id, tier: '0' }))._result);
      check(`${id} tier-0 line`, Number(/\((\d+) tokens\)/.exec(zero)![1]), count(content));
      const md = await (await world.app.fetch(new Request(two.binding.textUrl, { headers: { Authorization: `Bearer ${key}` } }))).text();
      check(`${id} text URL`, two.binding.contentTokenCount, count(md));
      // The outline's sections, and what is summed up past it.
      const mid = await ok(mcp, 'get_binding', { id, tier: '1.5' });
      for (const s of mid.binding.outline ?? []) check(`${id} outline §${s.id}`, s.tokens, await sectionCost(id, s.id));
      check(`${id} summaryTokenCount`, two.binding.summaryTokenCount, count(two.binding.summary));
      if (mid.binding.outlineRest) {
        // "…and N more sections, T tokens": the sections past the outline (the long manual's "Part i of the machine").
        const shown = (mid.binding.outline as unknown[]).length;
        const rest = Array.from({ length: mid.binding.outlineRest.sections }, (_, k) => `part-${shown + k}-of-the-machine`);
        let sum = 0;
        for (const s of rest) sum += await sectionCost(id, s);
        check(`${id} outlineRest`, mid.binding.outlineRest.tokens, sum);
        restChecked = true;
      }
      // Tier prices on the web: the binding's page and its line in the list.
      const page = (await browser.page(`/b/${id}`)).html;
      const rows = [...page.matchAll(/<tr><td>(1|1\.5|2)<\/td><td>[^<]*<\/td><td>([\d,]+)<\/td><\/tr>/g)];
      expect(rows.length).toBe(3);
      check(`${id} web page Markdown tokens`, Number(/\(([\d,]+) tokens of Markdown\)/.exec(page)![1]!.replace(/,/g, '')), count(content));
      for (const [, t, n] of rows) check(`${id} web page tier ${t}`, Number(n!.replace(/,/g, '')), read.get(id)![t!]!);
    }
    expect(restChecked).toBe(true);
    // Tier-0 lines in lists and searches: "(N tokens)" is the content's.
    const contentTokens = new Map<string, number>();
    for (const id of ids) contentTokens.set(id, count((await ok(mcp, 'get_binding', { id, tier: '2' })).binding.content));
    for (const [name, args] of [
      ['list_bindings', { tier: '0' }],
      ['search_bindings', { query: 'kitchen', tier: '0' }],
    ] as const) {
      const lines = [...textOf((await ok(mcp, name, args))._result).matchAll(/^- (bnd_\w+) .*?\((\d+) tokens\)/gm)];
      expect(lines.length).toBe(ids.length);
      for (const [, id, n] of lines) check(`${name} tier-0 line ${id}`, Number(n), contentTokens.get(id!)!);
    }
    const list = (await browser.page('/')).html;
    for (const id of ids) {
      const item = list.slice(list.indexOf(id));
      for (const t of TIERS) check(`${id} web list T${t}`, webCost(item, t), read.get(id)![t]!);
    }

    // A set's totals: the sum of its items at each tier, and get_set_context's answer less its heading line.
    const got = await ok(mcp, 'get_set', { id: setId });
    const listed = (await ok(mcp, 'list_sets', {})).sets.find((s: { id: string }) => s.id === setId);
    const listText = textOf((await ok(mcp, 'list_sets', {}))._result);
    const sets = (await browser.page('/sets')).html;
    const setPage = (await browser.page(`/sets/${setId}`)).html;
    for (const t of TIERS) {
      const sum = ids.reduce((n, id) => n + read.get(id)![t]!, 0);
      const context = await ok(mcp, 'get_set_context', { setId, tier: t, maxTokens: 20_000 });
      const heading = textOf(context._result).split('\n')[0]! + '\n';
      check(`set ${t}: get_set_context less its heading`, sum, contextOf(context._result).response.tokens - count(heading));
      check(`set ${t}: get_set`, got.set.tierTokens[t], sum);
      check(`set ${t}: list_sets`, listed.tierTokens[t], sum);
      check(
        `set ${t}: list_sets text`,
        Number(new RegExp(`${t === '1' ? 'tier 1' : t.replace('.', '\\.')}: (\\d+)`).exec(listText)![1]),
        sum,
      );
      check(`set ${t}: web sets list`, webCost(sets.slice(sets.indexOf(setId)), t), sum);
      check(`set ${t}: web set page total`, webCost(setPage.slice(setPage.indexOf('whole set')), t), sum);
      for (const [i, item] of (got.items as { id: string; tierTokens: Record<string, number> }[]).entries()) {
        check(`set item ${i} ${t}: get_set`, item.tierTokens[t]!, read.get(item.id)![t]!);
        check(`set item ${i} ${t}: web set page`, webCost(setPage.slice(setPage.indexOf(`${item.id}`)), t), read.get(item.id)![t]!);
      }
    }

    // Omitted items "N tokens at tier T" (fetch them by id later) and budget.omitted: get_binding at that tier.
    const budgeted: [string, Record<string, unknown>][] = [];
    for (const maxTokens of [100, 200, 300, 450]) {
      for (const tier of TIERS)
        budgeted.push(['search_bindings', { query: 'kitchen', tier, maxTokens }], ['get_bindings', { ids, tier, maxTokens }]);
      budgeted.push(['get_set_context', { setId, tier: '2', maxTokens, fallback: false, strategy: 'fill' }]);
    }
    const named = new Set<string>();
    for (const [name, args] of budgeted) {
      const r = await ok(mcp, name, args);
      for (const [, id, n, t] of textOf(r._result).matchAll(/^- (bnd_\w+) · (\d+) tokens at tier (\S+)$/gm)) {
        check(`${name} ${JSON.stringify(args)} footer ${id}`, Number(n), read.get(id!)![t!]!);
        named.add(name);
      }
      for (const o of contextOf(r._result).budget.omitted)
        check(`${name} ${JSON.stringify(args)} budget.omitted ${o.id}`, o.tokens, read.get(o.id)![String(args.tier)]!);
    }
    expect([...named].sort()).toEqual(['get_bindings', 'get_set_context', 'search_bindings']);

    // A search hit's section: sectionTokens is what get_binding {id, section} costs.
    const hits = (await ok(mcp, 'search_bindings', { query: 'vinegar crank', tier: '1' })).results as {
      id: string;
      match?: { section: string; sectionTokens: number };
    }[];
    expect(hits.some((h) => h.match)).toBe(true);
    for (const h of hits)
      if (h.match) check(`search ${h.id} sectionTokens`, h.match.sectionTokens, await sectionCost(h.id, h.match.section));

    // A query read's "best match X needs N tokens": that item alone, shown by that section, in a roomy answer less its heading.
    const tight = await ok(mcp, 'get_bindings', { ids, query: 'vinegar limescale', maxTokens: 170 });
    console.log('TIGHT<<' + textOf(tight._result) + '>>', JSON.stringify(contextOf(tight._result).budget));
    const needs = [...textOf(tight._result).matchAll(/^- (bnd_\w+) · best match "([^"]+)" needs (\d+) tokens$/gm)];
    expect(needs.length).toBeGreaterThan(0);
    for (const [, id, s, n] of needs) {
      const roomy = await ok(mcp, 'get_bindings', { ids: [id], query: 'vinegar limescale', maxTokens: 5000 });
      expect(contextOf(roomy._result).budget.included[0].sections).toEqual([s]);
      const heading = textOf(roomy._result).split('\n')[0]! + '\n';
      check(`get_bindings query ${id} needs`, Number(n), contextOf(roomy._result).response.tokens - count(heading));
    }

    expect(seen.length).toBeGreaterThan(60);
    expect(seen.filter((c) => c.advertised !== c.real)).toEqual([]);
  }, 30_000);
});

/** The first web tier-cost cell for tier `t` in `html` (layout.ts tierCosts). */
function webCost(html: string, t: string): number {
  const m = new RegExp(`<abbr title="tier ${t.replace('.', '\\.')}">T${t.replace('.', '\\.')}</abbr> ([\\d,]+)`).exec(html);
  if (!m) throw new Error(`no tier ${t} cost in ${html.slice(0, 200)}`);
  return Number(m[1]!.replace(/,/g, ''));
}
