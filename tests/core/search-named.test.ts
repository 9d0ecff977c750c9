// A query that writes out a document's name ("`accepts` types acceptable returns false") is about
// that document: it ranks first although another document holding the query's other words more often
// scores more by BM25. Only a whole name written as a name counts, and only when the query names one.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { namedIn } from '../../db/store/search-rerank.ts';
import { createTestWorld, ok, type TestWorld } from '../helpers.ts';

let world: TestWorld;
let alice: Client;

/** Documents of about the same length: filler words of their own, then `text`. */
const doc = (name: string, text: string, seed: number) =>
  `# ${name}\n\n${Array.from({ length: 120 }, (_, i) => `w${seed}x${i % 40}`).join(' ')}.\n\n## Use\n\n${text}\n`;
const ids = new Map<string, string>();

beforeAll(async () => {
  world = await createTestWorld();
  alice = await world.connect('alice');
  const docs = [
    ['Schema generator', 'Acceptable types return false. '.repeat(5)],
    ['accepts', 'If nothing in `types` is accepted, then `false` is returned.'],
  ] as const;
  for (const [i, [name, text]] of docs.entries()) {
    const made = await ok(alice, 'create_binding', { name, summary: 'A library.', content: doc(name, text, i) });
    ids.set(name, made.binding.id);
  }
});
afterAll(() => world.close?.());

const first = async (query: string) => (await ok(alice, 'search_bindings', { query, tier: '0' })).results[0].id;

describe('search_bindings and the document a query names', () => {
  test('a query writing out a name finds that document first', async () => {
    expect(await first('`accepts` types acceptable returns false')).toBe(ids.get('accepts'));
    // The same words, the name in plain words or inside an identifier: nothing is named, and BM25 alone decides.
    expect(await first('accepts types acceptable returns false')).toBe(ids.get('Schema generator'));
    expect(await first('accepts.v2 types acceptable returns false')).toBe(ids.get('Schema generator'));
  });
});

describe('namedIn: which name a query writes out', () => {
  const names = [
    'accepts',
    'type-is',
    'Ingest',
    'Vite',
    'react',
    'Zod to Json Schema',
    '@types/node',
    'is',
    'content-type',
    'send',
    'ingest.v2',
  ];
  const named = (query: string) => namedIn(query, names).map((i) => names[i]);

  test('a chunk written as a name holding exactly the name’s words', () => {
    expect(named('`accepts` types none acceptable returns false')).toEqual(['accepts']);
    expect(named('@types/node dependencies')).toEqual(['@types/node']);
    expect(named('zod-to-json-schema definitionPath')).toEqual(['Zod to Json Schema']);
    expect(named('type-is, the package')).toEqual(['type-is']);
    expect(named("what does ingest.v2's topic keep?")).toEqual(['ingest.v2']);
  });

  test('plain words name nothing: a name is written as one', () => {
    expect(named('accepts types none acceptable returns false')).toEqual([]);
    expect(named('send the last 404 reply when no route handled the request')).toEqual([]);
    expect(named('zod to json schema definitions')).toEqual([]);
    expect(named('Ingest topic retention?')).toEqual([]);
  });

  test('a word inside a longer name or identifier names nothing', () => {
    expect(named('raw body type returns false')).toEqual([]);
    expect(named('how long does the ingest.rows.v2 topic keep data')).toEqual([]);
    expect(named('json schema of a zod object')).toEqual([]);
  });

  test('stop words alone never name; two names in one query name neither', () => {
    expect(named('what is the default')).toEqual([]);
    expect(named("Vite's React plugin fast refresh")).toEqual([]);
    expect(named('@types/node type-is together')).toEqual([]);
  });

  test('one name on several documents names them all', () => {
    expect(namedIn('content-type parse charset', ['content-type', 'cookie', 'content-type'])).toEqual([0, 2]);
  });
});
