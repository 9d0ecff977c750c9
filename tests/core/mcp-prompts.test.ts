// Prompts, completions and logging (core/mcp/) through the SDK Client over InMemoryTransport.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  LoggingMessageNotificationSchema,
  type GetPromptResult,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { createBinderyServer } from '../../core/index.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import type { TokenCounter } from '../../core/tokens/counter.ts';
import { BINDING_URI_TEMPLATE } from '../../core/mcp/uri.ts';
import { createTestWorld, ok, type TestWorld, rejection } from '../helpers.ts';

const independent = new Tiktoken(o200k);
const count = (s: string) => independent.encode(s, [], []).length;

/** The prompt's single user message text, checking `_meta.context.response.tokens` is exact. */
async function prompt(client: Client, name: string, args: Record<string, string>): Promise<{ text: string; context: Record<string, any> }> {
  const res = (await client.getPrompt({ name, arguments: args })) as GetPromptResult;
  expect(res.messages).toHaveLength(1);
  expect(res.messages[0]!.role).toBe('user');
  const text = (res.messages[0]!.content as { text: string }).text;
  const context = (res._meta as { context: Record<string, any> }).context;
  expect(context.response.tokens).toBe(count(text));
  return { text, context };
}

let world: TestWorld;
let alice: Client;
let bob: Client;
let setId: string;
let noteId: string;
const NOTES = 105;

beforeAll(async () => {
  world = await createTestWorld();
  alice = await world.connect('alice');
  bob = await world.connect('bob');
  await ok(alice, 'create_space', { slug: 'alice-team', name: 'Alice team' });
  const ids: string[] = [];
  for (let i = 1; i <= NOTES; i++) {
    const made = await ok(alice, 'create_binding', {
      name: `Note ${String(i).padStart(3, '0')}`,
      content: `# Note ${i}\n\nThe aardvark fact number ${i}.\n`,
      summary: `Aardvark fact ${i}.`,
    });
    ids.push(made.binding.id);
  }
  noteId = ids[0]!;
  await ok(alice, 'update_binding', { id: noteId, content: '# Note 1\n\nThe aardvark fact, revised.\n', model: 'model-x' });
  await ok(alice, 'create_binding', { space: 'alice-team', name: 'Team plan', content: '# Plan\n\nShip it.\n', summary: 'The plan.' });
  setId = (await ok(alice, 'create_set', { name: 'Aardvarks', bindingIds: ids.slice(0, 5) })).set.id;
}, 60_000); // many writes; the machine is shared
afterAll(() => world.close());

describe('prompts', () => {
  test('prompts/list: load_set, review_history, find with their arguments', async () => {
    const { prompts } = await alice.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['load_set', 'review_history', 'find']);
    const loadSet = prompts[0]!;
    expect(loadSet.arguments!.find((a) => a.name === 'setId')!.required).toBe(true);
    expect(loadSet.arguments!.map((a) => a.name)).toEqual(['setId', 'maxTokens', 'tier']);
  });

  test('load_set embeds the packed set under maxTokens', async () => {
    const { text, context } = await prompt(alice, 'load_set', { setId, maxTokens: '400', tier: '2' });
    expect(text).toStartWith(`Context from set ${setId}`);
    expect(text).toContain('aardvark fact number 2');
    expect(count(text)).toBeLessThanOrEqual(400);
    expect(context.budget.maxTokens).toBe(400);
    const full = await prompt(alice, 'load_set', { setId });
    expect(full.text).toContain('aardvark fact number 5');
  });

  test('review_history lists versions with provenance, by slug, URI or id', async () => {
    const bySlug = await prompt(alice, 'review_history', { binding: 'note-001' });
    expect(bySlug.text).toContain(noteId);
    expect(bySlug.text).toContain('model-x');
    expect((await prompt(alice, 'review_history', { binding: 'bindery://alice/note-001' })).text).toBe(bySlug.text);
    expect((await prompt(alice, 'review_history', { binding: noteId })).text).toBe(bySlug.text);
    expect((await prompt(alice, 'review_history', { binding: 'team-plan', space: 'alice-team' })).text).toContain('Team plan');
  });

  test('find searches and asks for an answer', async () => {
    const { text } = await prompt(alice, 'find', { question: 'aardvark fact 7' });
    expect(text).toContain('Question: aardvark fact 7');
    expect(text).toContain('Note 007');
  });

  test('bad arguments name the argument and the rule', async () => {
    expect(await rejection(alice.getPrompt({ name: 'load_set', arguments: {} }))).toContain('setId: is required');
    expect(await rejection(alice.getPrompt({ name: 'load_set', arguments: { setId, maxTokens: 'lots' } }))).toContain(
      'maxTokens: must be a whole number',
    );
    expect(await rejection(alice.getPrompt({ name: 'load_set', arguments: { setId, maxTokens: '5' } }))).toContain(
      'maxTokens: must be at least 100',
    );
    expect(await rejection(alice.getPrompt({ name: 'load_set', arguments: { setId, tier: '3' } }))).toContain('tier: must be');
    expect(await rejection(alice.getPrompt({ name: 'load_set', arguments: { setId: 'nope' } }))).toContain('setId: must be a set id');
    expect(await rejection(alice.getPrompt({ name: 'load_set', arguments: { setId, extra: 'x' } }))).toContain('unknown argument "extra"');
    expect(await rejection(alice.getPrompt({ name: 'find', arguments: { question: '  ' } }))).toContain('question: must not be empty');
    expect(await rejection(alice.getPrompt({ name: 'nope', arguments: {} }))).toContain('name: no prompt named "nope"');
  });

  test("bob cannot tell alice's set or binding from a missing one", async () => {
    const hiddenSet = await rejection(bob.getPrompt({ name: 'load_set', arguments: { setId } }));
    const missingSet = await rejection(bob.getPrompt({ name: 'load_set', arguments: { setId: 'set_0000000000000000' } }));
    expect(hiddenSet).toBe(missingSet.replace('set_0000000000000000', setId));
    expect(hiddenSet).toContain('setId:');
    const hidden = await rejection(bob.getPrompt({ name: 'review_history', arguments: { binding: 'bindery://alice/note-001' } }));
    const missing = await rejection(bob.getPrompt({ name: 'review_history', arguments: { binding: 'bindery://alice/nothing' } }));
    expect(hidden).toBe(missing.replace('nothing', 'note-001'));
    expect(await rejection(bob.getPrompt({ name: 'review_history', arguments: { binding: noteId } }))).toBe(
      (await rejection(bob.getPrompt({ name: 'review_history', arguments: { binding: 'bnd_0000000000000000' } }))).replace(
        'bnd_0000000000000000',
        noteId,
      ),
    );
  });
});

describe('completions', () => {
  const template = { type: 'ref/resource' as const, uri: BINDING_URI_TEMPLATE };
  const reviewRef = { type: 'ref/prompt' as const, name: 'review_history' };

  test('space slugs and binding slugs in the chosen space', async () => {
    expect((await alice.complete({ ref: template, argument: { name: 'space', value: 'ali' } })).completion).toEqual({
      values: ['alice', 'alice-team'],
      total: 2,
      hasMore: false,
    });
    const inTeam = await alice.complete({
      ref: reviewRef,
      argument: { name: 'binding', value: '' },
      context: { arguments: { space: 'alice-team' } },
    });
    expect(inTeam.completion).toEqual({ values: ['team-plan'], total: 1, hasMore: false });
    const some = await alice.complete({
      ref: template,
      argument: { name: 'binding', value: 'note-00' },
      context: { arguments: { space: 'alice' } },
    });
    expect(some.completion.values).toEqual([
      'note-001',
      'note-002',
      'note-003',
      'note-004',
      'note-005',
      'note-006',
      'note-007',
      'note-008',
      'note-009',
    ]);
  });

  test('at most 100 values, with total and hasMore', async () => {
    const all = await alice.complete({
      ref: template,
      argument: { name: 'binding', value: 'note' },
      context: { arguments: { space: 'alice' } },
    });
    expect(all.completion.values).toHaveLength(100);
    expect(all.completion.total).toBe(NOTES);
    expect(all.completion.hasMore).toBe(true);
  });

  test('set ids by id or name, tiers, and nothing for unknown arguments', async () => {
    const loadRef = { type: 'ref/prompt' as const, name: 'load_set' };
    expect((await alice.complete({ ref: loadRef, argument: { name: 'setId', value: 'aard' } })).completion.values).toEqual([setId]);
    expect((await alice.complete({ ref: loadRef, argument: { name: 'setId', value: setId.slice(0, 8) } })).completion.values).toEqual([
      setId,
    ]);
    expect((await alice.complete({ ref: loadRef, argument: { name: 'tier', value: '1' } })).completion.values).toEqual(['1', '1.5']);
    expect((await alice.complete({ ref: loadRef, argument: { name: 'space', value: '' } })).completion.values).toEqual([]);
    expect(
      (await alice.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'space', value: '' } })).completion.values,
    ).toEqual([]);
  });

  test("a second user learns nothing of alice's private spaces, bindings or sets", async () => {
    const spaces = await bob.complete({ ref: template, argument: { name: 'space', value: '' } });
    expect(spaces.completion).toEqual({ values: ['bob'], total: 1, hasMore: false });
    for (const space of ['alice', 'alice-team', undefined]) {
      const got = await bob.complete({
        ref: template,
        argument: { name: 'binding', value: '' },
        ...(space ? { context: { arguments: { space } } } : {}),
      });
      expect(got.completion).toEqual({ values: [], total: 0, hasMore: false });
    }
    const sets = await bob.complete({ ref: { type: 'ref/prompt', name: 'load_set' }, argument: { name: 'setId', value: '' } });
    expect(sets.completion).toEqual({ values: [], total: 0, hasMore: false });
  });

  test('a binding alice shares with bob: readable by URI at once, listed and completed once accepted, nothing else of hers', async () => {
    const share = (await ok(alice, 'create_share', { target: noteId, user: 'bob', permission: 'read' })).share.id;
    expect((await bob.readResource({ uri: 'bindery://alice/note-001' })).contents).toHaveLength(1);
    expect((await bob.listResources()).resources).toEqual([]);
    expect((await bob.complete({ ref: template, argument: { name: 'space', value: '' } })).completion.values).toEqual(['bob']);
    await ok(bob, 'create_share', { accept: share });
    expect((await bob.listResources()).resources.map((r) => r.uri)).toEqual(['bindery://alice/note-001']);
    expect((await bob.complete({ ref: template, argument: { name: 'space', value: '' } })).completion.values).toEqual(['alice', 'bob']);
    const inAlice = await bob.complete({
      ref: template,
      argument: { name: 'binding', value: '' },
      context: { arguments: { space: 'alice' } },
    });
    expect(inAlice.completion).toEqual({ values: ['note-001'], total: 1, hasMore: false });
    expect(await rejection(bob.readResource({ uri: 'bindery://alice/note-002' }))).toContain('Resource not found');
  });
});

describe('logging', () => {
  test("setLevel filters this session's log lines sent as notifications/message", async () => {
    // A counter that fails on one magic word: a write containing it is an internal error, logged at error.
    const base = world.tokens;
    const tokens: TokenCounter = Object.create(base, {
      count: {
        value: (t: string) =>
          t.includes('KABOOM')
            ? (() => {
                throw new Error('counter exploded');
              })()
            : base.count(t),
      },
    });
    const caller = await ensureCaller({ db: world.db, now: () => Date.now() }, 'alice');
    const lines: string[] = [];
    const log = {
      info: (m: string) => lines.push(`info ${m}`),
      warn: (m: string) => lines.push(`warn ${m}`),
      error: (m: string) => lines.push(`error ${m}`),
    };
    const server = createBinderyServer({ db: world.db, tokens, config: world.config, log, now: Date.now }, { caller });
    const [cs, ss] = InMemoryTransport.createLinkedPair();
    await server.connect(ss);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(cs);
    const got: LoggingMessageNotification['params'][] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      got.push(n.params);
    });
    await client.setLoggingLevel('error');
    await client.subscribeResource({ uri: 'bindery://alice/note-002' }); // an info line: below the level
    const failed = await client.callTool({ name: 'create_binding', arguments: { name: 'Bad', content: 'KABOOM\n', summary: 'x' } });
    expect(failed.isError).toBe(true);
    await Bun.sleep(50);
    expect(got).toHaveLength(1);
    expect(got[0]!.level).toBe('error');
    expect(got[0]!.logger).toBe('bindery');
    expect(JSON.stringify(got[0]!.data)).toContain('counter exploded');
    expect(JSON.stringify(got[0]!.data)).not.toContain('    at '); // never a stack
    // The process log still got every line, info included.
    expect(lines.some((l) => l.startsWith('info resources/subscribe'))).toBe(true);
    expect(lines.some((l) => l.startsWith('error'))).toBe(true);

    await client.setLoggingLevel('info');
    await client.unsubscribeResource({ uri: 'bindery://alice/note-002' });
    await Bun.sleep(50);
    expect(got.map((g) => g.level)).toEqual(['error', 'info']);
    expect(String(got[1]!.data)).toBe('resources/unsubscribe bindery://alice/note-002');
    expect(await rejection(client.setLoggingLevel('loud' as never))).toMatch(/-32602: .*level: must be one of "?debug/);
    await client.close();
  });
});
