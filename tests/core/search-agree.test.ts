// One analyzer and one section scorer. Search's match and a query read
// (get_bindings {ids, query}) name the same section; a heading with no body is never the match; a
// heading the question nearly quotes is found; the excerpt is prose for a prose question and code for
// a code question.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTestWorld, ok, type TestWorld } from '../helpers.ts';
import { stem } from '../../db/text/analyzer.ts';

let world: TestWorld;
let client: Client;
beforeAll(async () => {
  world = await createTestWorld();
  client = await world.connect('agree');
});
afterAll(() => world.close());

const widget = [
  '# Widget',
  '',
  'Widget renders dashboards from a folder of queries.',
  '',
  '## Install',
  '',
  'Run the installer once per machine. It needs network access.',
  '',
  '## API',
  '',
  '### widget.render(options)',
  '',
  'Renders every dashboard of the folder and returns the file names it wrote.',
  '',
  '```js',
  'widget.render({ retries: 3, folder: "dash" })',
  '```',
  '',
  '## Configuration',
  '',
  'You configure the widget with a file named widget.json in the project root. Each setting there overrides a default.',
  'Set retries to the number of times a failed query is tried again before the dashboard shows an error.',
  '',
  '```json',
  '{ "retries": 3 }',
  '```',
  '',
  '## Troubleshooting',
  '',
  'When a dashboard stays empty, the query folder is probably wrong.',
].join('\n');

const handbook = [
  '# Team handbook',
  '',
  '## 5. Releases',
  '',
  'Every release takes two days of testing. Release days are Tuesdays; a release after an incident waits two more days.',
  'Days off during a release week are agreed with the release lead. Each release has a release lead.',
  '',
  '## 6. Leave',
  '',
  '### 6.1 Holidays',
  '',
  'Everyone has 28 days of holiday a year, booked in the calendar at least two weeks ahead.',
  '',
  '### 6.2 Recovery leave',
  '',
  'After an on-call week with a night page you take one recovery day, within the following week.',
  '',
  '## 8. Action items',
  '',
  'Action items from retrospectives go to the board with an owner and a due date.',
].join('\n');

async function bothMatches(id: string, query: string) {
  const found = await ok(client, 'search_bindings', { query, tier: '1' });
  const hit = found.results.find((r: { id: string }) => r.id === id);
  const read = await ok(client, 'get_bindings', { ids: [id], query });
  return {
    search: hit?.match as { section: string; excerpt: string } | undefined,
    read: read.results[0]?.sections?.[0]?.id as string | undefined,
  };
}

describe('search and query reads agree (one analyzer, one scorer)', () => {
  let widgetId = '';
  let handbookId = '';
  beforeAll(async () => {
    widgetId = (await ok(client, 'create_binding', { name: 'Widget', content: widget, summary: 'Dashboards from queries.' })).binding.id;
    handbookId = (await ok(client, 'create_binding', { name: 'Handbook', content: handbook, summary: 'How the team works.' })).binding.id;
  });

  test('"configure" finds §configuration in search and in a query read alike', async () => {
    const m = await bothMatches(widgetId, 'how do I configure it');
    expect(m.search?.section).toBe('configuration');
    expect(m.read).toBe('configuration');
  });

  test('on every question, the match search names is the first section a query read shows', async () => {
    const questions = [
      'how do I configure it',
      'widget api',
      'what does render return',
      'installer network',
      'dashboard stays empty',
      'recovery leave after on-call',
      'how many days of holiday',
      'action items owner',
      'release days',
    ];
    for (const q of questions) {
      for (const id of [widgetId, handbookId]) {
        const m = await bothMatches(id, q);
        if (m.search) expect(`${q}: ${m.read}`).toBe(`${q}: ${m.search.section}`);
      }
    }
  });

  test('a heading with no body under it is never the match', async () => {
    const m = await bothMatches(widgetId, 'widget API');
    expect(m.search?.section).not.toBe('api');
    expect(m.read).not.toBe('api');
    expect(m.search?.excerpt.length).toBeGreaterThan(0);
  });

  test('a body of drawing characters is a body: the section it sits under can be the match', async () => {
    const doc = [
      '# Boxes',
      '',
      'Boxes for use in the terminal, each a set of corner and edge characters.',
      '',
      '## single',
      '',
      '```',
      '┌────┐',
      '└────┘',
      '```',
      '',
      '## round',
      '',
      '```',
      '╭────╮',
      '╰────╯',
      '```',
    ].join('\n');
    const id = (await ok(client, 'create_binding', { name: 'Boxes', content: doc, summary: 'Terminal boxes.' })).binding.id;
    const m = await bothMatches(id, 'round');
    expect(m.search?.section).toBe('round');
    expect(m.search?.excerpt).toContain('╭────╮');
    expect(m.read).toBe('round');
  });

  test('a heading the question nearly quotes is found, though other sections repeat its other words', async () => {
    for (const [q, want] of [
      ['how many days of recovery leave do I get after a release night page', '6-2-recovery-leave'],
      ['8. Action items', '8-action-items'],
    ]) {
      const m = await bothMatches(handbookId, q!);
      expect(`${q}: ${m.read}`).toBe(`${q}: ${want}`);
      expect(`${q}: ${m.search?.section}`).toBe(`${q}: ${want}`);
    }
  });

  test('of two sections holding the same words, the one writing them side by side, in order, is the match', async () => {
    // Shaped after body-parser's README: the generic example's section is shorter and holds every word
    // apart ("adding a generic JSON parser ... the body"); the route-specific one holds the remembered sentence.
    const doc = [
      '# body-parser',
      '',
      '## Examples',
      '',
      '### Express top-level generic',
      '',
      'This example demonstrates adding a generic JSON parser as a top-level middleware, which will parse the body of every request.',
      '',
      '```js',
      'app.use(bodyParser.json())',
      '```',
      '',
      '### Express route-specific',
      '',
      'This example demonstrates adding body parsers specifically to the routes that need them.',
      'In general, this is the most recommended way to use body-parser with Express.',
      '',
      '```js',
      'const jsonParser = bodyParser.json()',
      "app.post('/login', urlencodedParser, function (req, res) { res.send('welcome, ' + req.body.username) })",
      "app.post('/api/users', jsonParser, function (req, res) { res.send(req.body) })",
      '```',
    ].join('\n');
    const id = (await ok(client, 'create_binding', { name: 'Body parser', content: doc, summary: 'Parse request bodies.' })).binding.id;
    const m = await bothMatches(id, 'example demonstrates adding body parsers');
    expect(m.search?.section).toBe('express-route-specific');
    expect(m.read).toBe('express-route-specific');
  });

  test('the section whose one sentence holds the question beats one that repeats its words apart', async () => {
    const doc = [
      '# Postmortem: charged twice',
      '',
      '## Summary',
      '',
      'On 1 January the billing run issued every invoice twice. The duplicate charges totalled 41,870 euros, all refunded by 8 January.',
      '',
      '## Timeline',
      '',
      '- 00:40 The second run completes; 312 customers are charged again.',
      '- 09:10 A finance team reports a double charge.',
      '- 3 January 15:00 The list of customers is ready; refunds start.',
    ].join('\n');
    const id = (await ok(client, 'create_binding', { name: 'Charged twice', content: doc, summary: 'An incident.' })).binding.id;
    const m = await bothMatches(id, 'double charge January total refunded');
    expect(m.search?.section).toBe('summary');
    expect(m.search?.excerpt).toContain('41,870');
    expect(m.read).toBe('summary');
  });

  test('prose for a prose question, code for a code question', async () => {
    const prose = await bothMatches(widgetId, 'how many retries before an error');
    expect(prose.search?.excerpt).toContain('Set retries to the number of times');
    expect(prose.search?.excerpt).not.toContain('{');
    const code = await bothMatches(widgetId, 'widget.render({ retries })');
    expect(code.search?.excerpt).toContain('widget.render({');
  });
});

describe('the analyzer', () => {
  test('British and American spellings of a doubled "l" meet, and a stem stays a prefix of its word', () => {
    const pairs: [string, string][] = [
      ['totalled', 'total'],
      ['cancelled', 'cancel'],
      ['labelled', 'label'],
      ['installed', 'install'],
      ['falling', 'fall'],
    ];
    for (const [a, b] of pairs) expect(stem(a)).toBe(stem(b));
    for (const w of ['totalled', 'install', 'small', 'still', 'fall', 'configuration', 'comments'])
      expect(w.startsWith(stem(w))).toBe(true);
  });

  test('"-ing" after a three-letter base meets the word with its silent "e"; "thing" and "string" stay whole', () => {
    for (const [a, b] of [
      ['naming', 'names'],
      ['naming', 'name'],
      ['coding', 'code'],
      ['making', 'makes'],
    ] as const)
      expect(stem(a)).toBe(stem(b));
    for (const w of ['thing', 'things', 'string', 'strings', 'being', 'naming']) expect(w.startsWith(stem(w))).toBe(true);
    expect(stem('thing')).toBe('thing');
    expect(stem('strings')).toBe('string');
  });
});
