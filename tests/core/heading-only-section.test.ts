// A section that is only its heading ("## API" over "### run(task)", …) is read as where its text is:
// its subsections by id with what each read costs, never an empty block. The price the outline
// advertises for it is what the read costs, and under a small maxTokens it names fewer of them.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, contextOf, createTestWorld, ok, textOf, type TestWorld } from '../helpers.ts';

const CONTENT = [
  '# Taskkit',
  '',
  'Runs tasks.',
  '',
  '## API',
  '',
  '### run(task)',
  '',
  'Runs the task and resolves to its exit code.',
  '',
  '### stop()',
  '',
  'Stops every running task.',
  '',
  '#### Stop options',
  '',
  'A grace period in milliseconds, 5000 by default.',
  '',
  '## Reference',
  '',
  ...Array.from({ length: 30 }, (_, k) => `### Method number ${k + 1}\n\nDoes thing ${k + 1}.\n`),
].join('\n');

let world: TestWorld;
let client: Client;
let id: string;
/** Each section's advertised cost, from the tier-1.5 outline. */
let cost: Map<string, number>;

beforeAll(async () => {
  world = await createTestWorld();
  client = await world.connect('reader');
  id = (await ok(client, 'create_binding', { name: 'Taskkit', summary: 'Runs tasks.', content: CONTENT })).binding.id;
  const sections = (await ok(client, 'get_bindings', { ids: [id], tier: '1.5' })).results[0];
  cost = new Map();
  // The outline lists the first sections; every section read reports its own cost as well.
  for (const s of sections.outline ?? []) cost.set(s.id, s.tokens);
});
afterAll(() => world.close());

describe('a heading-only section', () => {
  test('names its subsections and their exact costs instead of an empty block', async () => {
    const read = await call(client, 'get_binding', { id, section: 'api' });
    const text = textOf(read);
    expect(text).toBe(
      `Section "api" (2 of 36), path taskkit › api: only a heading; its text is in §run-task (${cost.get('run-task')} tokens), §stop (${cost.get('stop')} tokens), and 1 more section under it.\n`,
    );
    for (const sub of ['run-task', 'stop']) {
      const r = await call(client, 'get_binding', { id, section: sub });
      expect(contextOf(r).response.tokens).toBe(cost.get(sub));
      expect(textOf(r)).toContain('<content fence=');
    }
  });

  test('costs exactly what the outline advertises', async () => {
    for (const section of ['api', 'reference']) {
      const r = await call(client, 'get_binding', { id, section });
      expect(contextOf(r).response.tokens).toBe(cost.get(section) ?? (r.structuredContent as any).binding.section.tokens);
      expect((r.structuredContent as any).binding.section.tokens).toBe(contextOf(r).response.tokens);
    }
  });

  test('under a small maxTokens it names fewer subsections, within the budget, never none', async () => {
    const whole = await call(client, 'get_binding', { id, section: 'reference' });
    expect(textOf(whole)).toContain('§method-number-12 (');
    expect(textOf(whole)).toContain('and 18 more sections under it.');
    const small = await call(client, 'get_binding', { id, section: 'reference', maxTokens: 50 });
    const text = textOf(small);
    expect(contextOf(small).response.tokens).toBeLessThanOrEqual(50);
    expect(text).toMatch(/^Section "reference" \(6 of 36\), path taskkit › reference: only a heading; its text is in §method-number-1 \(/);
    expect(text).toMatch(/and \d+ more sections under it\.\n$/);
  });

  test('a section with text of its own reads as before: its text between fence lines', async () => {
    const text = textOf(await call(client, 'get_binding', { id, section: 'stop' }));
    expect(text).toContain('Stops every running task.');
    expect(text).not.toContain('only a heading');
  });

  test('a parent of 120,000 bare headings is written and read in one pass (no spread of them all)', async () => {
    const many = `# Index\n${Array.from({ length: 120_000 }, (_, k) => `## ${k.toString(36)}`).join('\n')}\n`;
    const big = (await ok(client, 'create_binding', { name: 'Index', summary: 'Many headings.', content: many })).binding.id;
    const text = textOf(await call(client, 'get_binding', { id: big, section: 'index' }));
    expect(text).toContain('only a heading; its text is in §0 (');
    expect(text).toContain('and 119988 more sections under it.');
  });
});
