// Help topics (seeded from help/*.md through the generated bundle, replaceable with `bindery help set`,
// never overwritten by a later seed) and whoami.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { bundledHelpTopics } from '../../core/help/bundle.ts';
import { ensureHelpTopics, helpBody, setHelpTopic } from '../../core/services/help.ts';
import { getHelpTopic } from '../../db/store/help.ts';
import { contextOf, createTestWorld, err, ok, textOf, type TestWorld } from '../helpers.ts';

const root = join(import.meta.dir, '..', '..');

describe('help topics', () => {
  let world: TestWorld;
  let client: Client;
  const deps = () => ({ db: world.db, tokens: world.tokens, config: world.config, now: () => Date.now() });
  beforeAll(async () => {
    world = await createTestWorld();
    client = await world.connect('reader');
  });
  afterAll(() => world.close());

  test('the bundle matches help/*.md (run `bun scripts/bundle-help.ts` after editing them)', () => {
    const files = readdirSync(join(root, 'help'))
      .filter((f) => f.endsWith('.md'))
      .sort();
    expect(bundledHelpTopics).toEqual(files.map((f) => ({ topic: f.slice(0, -3), body: readFileSync(join(root, 'help', f), 'utf8') })));
    for (const name of ['start', 'workflow', 'tools', 'tiers-and-budgets', 'errors']) expect(files).toContain(`${name}.md`);
  });

  test('the topics cover what a model needs mid-task', () => {
    const all = bundledHelpTopics.map((t) => t.body).join('\n');
    for (const code of ['INVALID_INPUT', 'NOT_FOUND', 'FORBIDDEN', 'CONFLICT', 'TOO_LARGE', 'INTERNAL'])
      expect(all).toContain(`**${code}**`);
    for (const tool of ['search_bindings', 'get_bindings', 'get_set_context', 'create_share', 'add_comment', 'edit_set_items'])
      expect(all).toContain(tool);
    expect(all).toContain('"1.5"');
    expect(all).toContain('maxTokens');
  });

  test('help without a topic lists every topic with its exact token cost, start first', async () => {
    const r = await ok(client, 'help', {});
    expect(r.topics.map((t: { topic: string }) => t.topic)).toEqual([
      'start',
      ...bundledHelpTopics.map((t) => t.topic).filter((t) => t !== 'start'),
    ]);
    for (const t of r.topics) {
      const body = bundledHelpTopics.find((b) => b.topic === t.topic)!.body;
      expect(t.tokenCount).toBe(world.tokens.count(helpBody(body)));
    }
    expect(textOf(r._result)).toMatch(/- workflow · Workflow: search, preview, read · \d+ tokens/);
  });

  test('help {topic} returns the Markdown; its stored count is the whole answer', async () => {
    const r = await ok(client, 'help', { topic: 'workflow' });
    expect(r.topic).toMatchObject({ topic: 'workflow', title: 'Workflow: search, preview, read', origin: 'seed' });
    expect(textOf(r._result)).toBe(helpBody(bundledHelpTopics.find((t) => t.topic === 'workflow')!.body));
    expect(contextOf(r._result).response.tokens).toBe(r.topic.tokenCount);
    expect(await err(client, 'help', { topic: 'nope' })).toMatch(
      /^Error NOT_FOUND: topic: there is no help topic "nope"; topics are .*workflow/,
    );
  });

  test('seeding is idempotent, removes topics gone from the repo and never overwrites one set by hand', async () => {
    expect(await ensureHelpTopics(deps())).toBe(0);
    const custom = await setHelpTopic(deps(), 'workflow', '# Our workflow\n\nAsk the team channel first.\n');
    expect(custom).toMatchObject({ origin: 'cli', title: 'Our workflow' });
    await world.db.run(
      sql`INSERT INTO help_topics (topic, title, body, token_count, updated_at, origin) VALUES ('obsolete', 'Old', '# Old\n', 2, 0, 'seed')`,
    );
    await world.db.run(sql`UPDATE help_topics SET body = '# stale\n' WHERE topic = 'errors'`);
    await world.db.run(sql`DELETE FROM settings WHERE key = 'help_seed'`); // as after a deploy with new help files
    expect(await ensureHelpTopics(deps())).toBeGreaterThan(0);
    expect((await getHelpTopic(world.db, 'workflow'))!.body).toBe('# Our workflow\n\nAsk the team channel first.\n');
    expect(await getHelpTopic(world.db, 'obsolete')).toBeUndefined();
    expect((await getHelpTopic(world.db, 'errors'))!.body).toBe(helpBody(bundledHelpTopics.find((t) => t.topic === 'errors')!.body));
    const r = await ok(client, 'help', { topic: 'workflow' });
    expect(textOf(r._result)).toContain('Ask the team channel first.');
    await expect(setHelpTopic(deps(), 'Bad Topic', '# x')).rejects.toThrow(/topic: must be lowercase/);
    await expect(setHelpTopic(deps(), 'huge', `# Huge\n\n${'many words here '.repeat(20_000)}`)).rejects.toThrow(
      /file: is \d+ tokens; a topic is one answer, so at most 25000/,
    );
    expect(await getHelpTopic(world.db, 'huge')).toBeUndefined();
  });
});

describe('bindery help set (CLI)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bindery-help-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('replaces a topic in the database without a deploy; a restart keeps it', async () => {
    const db = join(dir, 'help.db');
    const file = join(dir, 'errors.md');
    writeFileSync(file, '# Errors, our way\n\nPage the on-call model.\n');
    const env = { ...process.env, BINDERY_DB_URL: `file:${db}` };
    const run = (args: string[]) => Bun.spawnSync(['bun', join(root, 'adapters', 'cli.ts'), 'help', ...args], { env, cwd: root });
    const set = run(['set', 'errors', file]);
    expect(set.exitCode).toBe(0);
    expect(set.stdout.toString()).toMatch(/help topic "errors" set from .* \(\d+ tokens, "Errors, our way"\); later seeds keep it/);
    expect(run(['set', 'errors']).exitCode).toBe(2);
    expect(run(['set', 'errors', join(dir, 'missing.md')]).exitCode).toBe(1);
    expect(run(['set', 'Not A Topic', file]).exitCode).toBe(2);

    // A server started on that database (which seeds again) serves the CLI's text.
    const world = await createTestWorld({ BINDERY_DB_URL: `file:${db}` });
    try {
      await world.db.run(sql`DELETE FROM settings WHERE key = 'help_seed'`);
      const client = await world.connect('local');
      const r = await ok(client, 'help', { topic: 'errors' });
      expect(r.topic).toMatchObject({ origin: 'cli', title: 'Errors, our way' });
      expect(textOf(r._result)).toBe('# Errors, our way\n\nPage the on-call model.\n');
    } finally {
      world.close();
    }
  }, 30_000); // five CLI processes and a server: seconds each on a loaded machine
});

describe('bindery help set --new, help list, help delete (CLI)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bindery-help-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('an unknown topic needs --new; list shows origins; delete restores a bundled topic or removes a new one', () => {
    const env = { ...process.env, BINDERY_DB_URL: `file:${join(dir, 'help.db')}` };
    const run = (args: string[]) => {
      const r = Bun.spawnSync(['bun', join(root, 'adapters', 'cli.ts'), 'help', ...args], { env, cwd: root });
      return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
    };
    const file = join(dir, 'topic.md');
    writeFileSync(file, '# On call\n\nPage the on-call model.\n');

    const typo = run(['set', 'eror', file]);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain('no help topic "eror" (topics: ');
    expect(typo.err).toContain('errors');
    expect(typo.err).toContain('pass --new');
    expect(run(['list']).out).not.toContain('eror');

    const added = run(['set', 'on-call', file, '--new']);
    expect(added.code).toBe(0);
    expect(added.out).toContain('help topic "on-call" set');
    expect(run(['set', 'errors', file]).code).toBe(0); // a bundled name needs no --new
    // Once it exists, the new topic can be replaced without --new.
    expect(run(['set', 'on-call', file]).code).toBe(0);

    const listed = run(['list']).out.trim().split('\n');
    expect(listed).toContain('on-call\tset by hand\t' + listed.find((l) => l.startsWith('on-call\t'))!.split('\t')[2] + '\tOn call');
    expect(listed.find((l) => l.startsWith('errors\t'))).toContain('set by hand');
    expect(listed.find((l) => l.startsWith('workflow\t'))).toContain('bundled');

    expect(run(['delete', 'on-call']).out).toContain('help topic "on-call" removed');
    expect(run(['list']).out).not.toContain('on-call');
    const restored = run(['delete', 'errors']);
    expect(restored.out).toContain('help topic "errors" is back to its bundled text');
    expect(
      run(['list'])
        .out.split('\n')
        .find((l) => l.startsWith('errors\t')),
    ).toMatch(/^errors\tbundled\t\d+ tokens\t/);
    const again = run(['delete', 'errors']);
    expect(again.code).toBe(2);
    expect(again.err).toContain('is a bundled topic');
    const missing = run(['delete', 'nope']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('help topic nope was not found');
    expect(run(['list', 'extra']).code).toBe(2);
  }, 60_000);
});

describe('whoami', () => {
  test('user, spaces, tool mode and why, tokenizer, client, limits', async () => {
    const world = await createTestWorld();
    try {
      const client = await world.connect('dana', { clientName: 'test-client' });
      await ok(client, 'create_space', { slug: 'dana-lab', name: 'Lab', visibility: 'public' });
      const w = await ok(client, 'whoami', {});
      expect(w.user.handle).toBe('dana');
      expect(w.spaces.map((s: { slug: string }) => s.slug)).toEqual(['@dana', '@dana-lab']);
      expect(w.toolMode).toMatchObject({ mode: 'eager', reason: expect.stringContaining('BINDERY_TOOL_MODE') });
      expect(w.toolMode.listedTools).toBeGreaterThanOrEqual(20);
      expect(w.tokenizer).toBe('o200k_base');
      expect(w.client).toEqual({ name: 'test-client', version: '1.0.0' });
      expect(w.limits).toMatchObject({
        maxResponseTokens: 25_000,
        maxContentBytes: 1_000_000,
        minBudgetTokens: 50,
        maxBatchIds: 50,
        maxSetItems: 500,
      });
      expect(textOf(w._result)).toContain('You are @dana');
      const lazy = await world.connect('dana', { mode: 'lazy' });
      expect((await ok(lazy, 'whoami', {})).toolMode.mode).toBe('lazy');
    } finally {
      world.close();
    }
  });
});
