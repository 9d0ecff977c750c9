import { afterAll, describe, expect, test } from 'bun:test';
import { createTestWorld, err, ok, textOf, contextOf, type TestWorld } from '../helpers';
import { OUTLINE_TOKEN_BOUND } from '../../core/budget/outline';

const worlds: TestWorld[] = [];
afterAll(() => worlds.forEach((w) => w.close()));
async function world(env: Record<string, string> = {}) {
  const w = await createTestWorld(env);
  worlds.push(w);
  return w;
}

/** A document of `n` `## Part k` sections, each `words` words long. */
function parts(n: number, words = 12): string {
  const body = (k: number) => Array.from({ length: words }, (_, j) => `word${(k * 7 + j) % 50}`).join(' ');
  return `# Manual\n\nIntro text.\n\n${Array.from({ length: n }, (_, k) => `## Part ${k + 1}\n\n${body(k)}\n`).join('\n')}`;
}

describe('outline at tier 1.5', () => {
  test('bounded with 500 sections: the rest summed up on one line, counts exact', async () => {
    const w = await world();
    const c = await w.connect();
    const { binding } = await ok(c, 'create_binding', { name: 'Big', summary: 'Five hundred parts.', content: parts(500) });
    const r = await ok(c, 'get_binding', { id: binding.id, tier: '1.5' });
    const b = r.binding;
    expect(b.outline.length).toBeGreaterThan(3);
    expect(b.outline.length).toBeLessThan(30);
    expect(b.outline[0]).toMatchObject({ id: 'manual', heading: 'Manual' });
    expect(b.outlineRest.sections).toBe(501 - b.outline.length);
    const text = textOf(r._result);
    const outline = text.slice(text.indexOf('Outline: '));
    expect(outline).toContain(`…and ${b.outlineRest.sections} more sections, ${b.outlineRest.tokens.toLocaleString('en-US')} tokens`);
    expect(w.tokens.count(outline)).toBeLessThanOrEqual(OUTLINE_TOKEN_BOUND);
    // Tier 1 is unchanged by sections.
    const t1 = await ok(c, 'get_binding', { id: binding.id });
    expect(contextOf(t1._result).response.tokens).toBeLessThanOrEqual(300);
    expect(t1.binding.outline).toBeUndefined();
  });

  test('short content without headings has no outline block; a list at tier 1.5 shows outlines exactly', async () => {
    const w = await world();
    const c = await w.connect();
    const a = (await ok(c, 'create_binding', { name: 'Plain', summary: 'No headings.', content: 'Just a line.' })).binding;
    const b = (await ok(c, 'create_binding', { name: 'Parts', summary: 'Some parts.', content: parts(30) })).binding;
    const plain = await ok(c, 'get_binding', { id: a.id, tier: '1.5' });
    expect(textOf(plain._result)).not.toContain('Outline:');
    const list = await ok(c, 'get_bindings', { ids: [a.id, b.id], tier: '1.5', maxTokens: 3000 });
    expect(list.results[1].outline.length).toBeGreaterThan(3);
    expect(textOf(list._result)).toContain('Outline: 31 sections');
  });
});

describe('section reads', () => {
  test('one section with its heading path, fenced, at its exact stored cost; code-fenced headings ignored', async () => {
    const w = await world();
    const c = await w.connect();
    const content = '# Guide\n\nIntro.\n\n## Install\n\nRun it.\n\n```sh\n# not a heading\n## nor this\n```\n\n### On Linux\n\napt install it\n\n## Use\n\nCall it.\n';
    const { binding } = await ok(c, 'create_binding', { name: 'Guide', summary: 'A guide.', content });
    const t15 = (await ok(c, 'get_binding', { id: binding.id, tier: '1.5' })).binding;
    expect(t15.outline.map((s: { id: string }) => s.id)).toEqual(['guide', 'install', 'on-linux', 'use']);
    const r = await ok(c, 'get_binding', { id: binding.id, section: 'install' });
    expect(r.binding.section).toMatchObject({ id: 'install', path: ['Guide', 'Install'], index: 2, count: 4 });
    expect(r.binding.section.content).toContain('# not a heading');
    expect(r.binding.section.content).not.toContain('On Linux');
    const text = textOf(r._result);
    expect(text).toContain('Section "install" (2 of 4): Guide › Install');
    expect(text).toMatch(/<content fence="[^"]+" section="install">/);
    const card = (await ok(c, 'get_binding', { id: binding.id })).binding;
    const cardTokens = contextOf((await ok(c, 'get_binding', { id: binding.id }))._result).response.tokens;
    expect(contextOf(r._result).response.tokens).toBe(cardTokens + r.binding.section.tokens);
    expect(t15.outline[1].tokens).toBe(r.binding.section.tokens);
    expect(card.id).toBe(binding.id);
    const nested = await ok(c, 'get_version', { id: binding.id, version: 1, section: 'on-linux' });
    expect(nested.binding.section.path).toEqual(['Guide', 'Install', 'On Linux']);
    expect(nested.current).toBe(true);
  });

  test('a missing section is NOT_FOUND naming section and a bounded list of valid ids', async () => {
    const w = await world();
    const c = await w.connect();
    const { binding } = await ok(c, 'create_binding', { name: 'Parts', summary: 'Parts.', content: parts(40) });
    const text = await err(c, 'get_binding', { id: binding.id, section: 'nope' });
    expect(text).toContain('NOT_FOUND');
    expect(text).toContain('section: "nope" is not a section');
    expect(text).toContain('"part-1"');
    expect(text).toContain('and 29 more');
    expect(text.length).toBeLessThan(600);
  });

  test('a section over the response cap (1000) comes in pages that reassemble exactly', async () => {
    const w = await world({ BINDERY_MAX_RESPONSE_TOKENS: '1000' });
    const c = await w.connect();
    const long = Array.from({ length: 300 }, (_, i) => `Line ${i} of the long section, with some words.`).join('\n');
    const { binding } = await ok(c, 'create_binding', { name: 'Long', summary: 'One long section.', content: `# Start\n\nshort\n\n## Long part\n\n${long}\n\n## End\n\nbye\n` });
    let cursor: string | undefined;
    let got = '';
    let pages = 0;
    do {
      const r = await ok(c, 'get_binding', { id: binding.id, section: 'long-part', ...(cursor ? { cursor } : {}) });
      expect(contextOf(r._result).response.tokens).toBeLessThanOrEqual(1000);
      got += r.binding.section.content;
      cursor = r.binding.page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(2);
    expect(got).toBe(`## Long part\n\n${long}\n\n`);
  });
});
