// A public page of hostile Markdown must not cost seconds of CPU on every anonymous
// GET. Pages are rendered once per version (a byte-bounded cache) and each render is bounded.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createBinding, updateBinding } from '../../core/services/bindings.ts';
import { createSpace } from '../../core/services/spaces.ts';
import { renderMarkdown, RENDER_LIMITS } from '../../core/http/markdown.ts';
import { cost, httpWorld, type HttpWorld } from './http-world.ts';

const HUMAN = { source: 'human', model: null } as const;

/** The inputs that cost markdown-it most per byte, in turn, each section about 16 KB, up to `size`. */
function pathological(size: number): string {
  const sections = [
    '!['.repeat(8000), // unclosed image labels: ~4 µs a byte
    '['.repeat(16000),
    '|a'.repeat(100) + '|\n' + '|-'.repeat(100) + '|\n' + ('|b'.repeat(100) + '|\n').repeat(75), // wide tables
    '> - > - > - x\n'.repeat(1150), // lazy quote/list containers
    '- a\n'.repeat(4000), // one block per line
    '*a_'.repeat(5300),
    '>'.repeat(200) + ' deep\n',
  ];
  let out = '';
  for (let i = 0; out.length < size; i++) out += sections[i % sections.length] + '\n\n';
  return out.slice(0, size);
}

let w: HttpWorld;
const slugs: Record<string, string> = {};
let bigId = '';

beforeAll(async () => {
  w = await httpWorld();
  const space = await createSpace(w.deps, w.bob, { slug: 'bob-pub', name: 'Bob public', visibility: 'public' });
  const make = async (key: string, content: string) => {
    const row = await createBinding(
      w.deps,
      w.bob,
      { space: space.slug, name: `Hostile ${key}`, content, summary: `A ${key} document.` },
      HUMAN,
    );
    slugs[key] = row.bindingSlug;
    return row.bindingId;
  };
  bigId = await make('1mb', pathological(999_000));
  await make('250kb', pathological(250_000));
  await make('small', '# Small\n\nA *normal* page with a [link](https://example.com).\n');
}, 60_000);

afterAll(() => w.close());

describe('public pages', () => {
  test('a 1 MB pathological page: the first GET is bounded, the second does not render again', async () => {
    const path = `/@bob-pub/${slugs['1mb']}`;
    const first = await cost(async () => (await w.get(path)).text());
    const second = await cost(async () => (await w.get(path)).text());
    console.log(
      `1 MB pathological page: first GET ${first.cpuMs.toFixed(1)} ms CPU (${first.wallMs.toFixed(1)} ms wall), second GET ${second.cpuMs.toFixed(1)} ms CPU (${second.wallMs.toFixed(1)} ms wall)`,
    );
    expect(first.value).toContain('shown as plain text');
    expect(first.value).toContain('![![');
    expect(second.value).toBe(first.value);
    expect(w.app.pages.renders).toBe(1);
    expect(w.app.pages.hits).toBe(1);
    // Generous bounds for a shared 2-core machine; the measured figures are printed above.
    expect(first.wallMs).toBeLessThan(1_500);
    expect(second.wallMs).toBeLessThan(500);
  }, 60_000);

  test('a 250 KB pathological page (under the size limit) is formatted within a bound', async () => {
    const before = w.app.pages.renders;
    const first = await cost(async () => (await w.get(`/@bob-pub/${slugs['250kb']}`)).text());
    console.log(`250 KB pathological page: first GET ${first.cpuMs.toFixed(1)} ms CPU (${first.wallMs.toFixed(1)} ms wall)`);
    expect(w.app.pages.renders).toBe(before + 1);
    expect(first.value).toContain('<p class="note">');
    expect(first.wallMs).toBeLessThan(1_500);
  }, 30_000);

  test('six concurrent GETs of a fresh version render it once and do not stall another reader', async () => {
    await updateBinding(w.deps, w.bob, bigId, { content: pathological(998_000) }, HUMAN);
    const before = w.app.pages.renders;
    const path = `/@bob-pub/${slugs['1mb']}`;
    const flood = Array.from({ length: 6 }, () => w.get(path).then((r) => r.text()));
    const other = await cost(async () => (await w.get(`/@bob-pub/${slugs.small}`)).text());
    await Promise.all(flood);
    console.log(`another reader during 6 concurrent GETs of a new 1 MB version: ${other.wallMs.toFixed(1)} ms wall`);
    expect(other.value).toContain('<em>normal</em>');
    expect(w.app.pages.renders).toBe(before + 2); // the new version once, the small page once
    expect(other.wallMs).toBeLessThan(1_500);
  }, 60_000);

  test('?format=md serves the stored text without rendering', async () => {
    const before = w.app.pages.renders;
    const res = await w.get(`/@bob-pub/${slugs['250kb']}?format=md`);
    expect(await res.text()).toBe(pathological(250_000));
    expect(w.app.pages.renders).toBe(before);
  });
});

describe('the bounded renderer', () => {
  test('ordinary Markdown renders as before; links stay inert', () => {
    const html = renderMarkdown('# T\n\nSome *text* and [a](https://e.x) and [b](javascript:alert(1)).\n\n- one\n- two\n');
    expect(html).toContain('<h1>T</h1>');
    expect(html).toContain('<a href="https://e.x" rel="nofollow noopener noreferrer">a</a>');
    expect(html).not.toContain('href="javascript:');
    expect(html).not.toContain('class="note"');
  });

  test('over the size limit, too many blocks or nested too deep: the text as it is, escaped, with a note', () => {
    const big = renderMarkdown('<b>x</b> '.repeat(40_000));
    expect(big).toStartWith('<p class="note">This document is long');
    expect(big).toContain('&lt;b&gt;x&lt;/b&gt;');
    // A clock that never moves: this case is about the block limit, which a busy machine's clock must not pre-empt.
    const still = { ...RENDER_LIMITS, now: () => 0 };
    expect(renderMarkdown('- a\n'.repeat(30_000), still)).toStartWith('<p class="note">This document has too many blocks');
    const deep = renderMarkdown(`${'>'.repeat(30)} lost?\n\nafter\n`);
    expect(deep).toStartWith('<p class="note">This document nests');
    expect(deep).toContain('lost?');
    let t = 0;
    const slow = renderMarkdown('- a\n'.repeat(20), { ...RENDER_LIMITS, now: () => (t += 30) });
    expect(slow).toStartWith('<p class="note">This document takes too long to format');
  });

  test('without the size limit, every block and inline budget still bounds 1 MB of pathological Markdown', () => {
    const source = pathological(999_000);
    const t0 = performance.now();
    const html = renderMarkdown(source, { ...RENDER_LIMITS, maxChars: Number.POSITIVE_INFINITY });
    const ms = performance.now() - t0;
    console.log(`1 MB pathological Markdown through the bounded renderer (no size limit): ${ms.toFixed(1)} ms`);
    expect(html).toStartWith('<p class="note">');
    expect(ms).toBeLessThan(1_500);
  });

  test('a paragraph past the inline limit, or after the time budget, is plain text', () => {
    const long = renderMarkdown(`*short* para\n\n${'*b* '.repeat(2_500)}\n`);
    expect(long).toContain('<em>short</em>');
    expect(long).toContain('*b* *b*');
    expect(long).toContain('1 paragraph is too long or too costly');
    let t = 0;
    const late = renderMarkdown('*one*\n\n*two*\n\n*three*\n', { ...RENDER_LIMITS, inlineMs: 1.5, now: () => t++ });
    expect(late).toContain('<em>one</em>');
    expect(late).toContain('<p>*two*</p>');
    expect(late).toContain('2 paragraphs are too long or too costly');
  });
});
