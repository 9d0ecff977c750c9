import MarkdownIt from 'markdown-it';
import { html, trusted, type Html } from '../web/html.ts';

/**
 * Limits on one render. markdown-it is linear but slow on hostile input (a megabyte of `![` takes
 * seconds), so a page is rendered at most once per version (see page-cache.ts) and each render is
 * bounded. The block pass (quotes, lists, tables…) is stopped, and the text shown as it is, past
 * `maxChars`, `maxBlockTokens` or `blockMs`; in the inline pass (emphasis, links…) a paragraph longer
 * than `maxInlineChars`, and every paragraph left once `inlineMs` have passed, is shown as plain text.
 */
export interface RenderLimits {
  maxChars: number;
  /** Block tokens (each paragraph, item, cell… opens and closes one); rendering is linear in them. */
  maxBlockTokens: number;
  blockMs: number;
  maxInlineChars: number;
  inlineMs: number;
  /** Elapsed milliseconds. A Worker's clock stands still while it computes: there the size limits are the bound. */
  now: () => number;
}

export const RENDER_LIMITS: RenderLimits = {
  maxChars: 256 * 1024,
  maxBlockTokens: 60_000,
  blockMs: 100,
  maxInlineChars: 8 * 1024,
  inlineMs: 150,
  now: () => performance.now(),
};

/**
 * Containers (quotes, lists) nested deeper than this are not parsed: markdown-it silently drops such
 * a container's lines, so a document that reaches the limit is shown as text instead (no loss).
 * 20 is markdown-it's own CommonMark preset value; its default preset allows 100.
 */
const MAX_NESTING = 20;

interface RenderEnv {
  limits: RenderLimits;
  blockDeadline: number;
  inlineDeadline?: number;
  /** Paragraphs shown as plain text (too long, or past the deadline). */
  plain: number;
}

/** Thrown from inside the block pass to abandon a render; the page then shows the text. */
class Stop {
  constructor(readonly why: string) {}
}

/**
 * Markdown to inert HTML. `html: false` shows raw HTML (a `<script>` included) as text, and
 * markdown-it's default link validation drops `javascript:`, `vbscript:`, `file:` and non-image
 * `data:` URLs. The page also sends a Content-Security-Policy without script-src, so nothing from
 * content could run even if a rule here were missed.
 */
const md = new MarkdownIt({ html: false, linkify: false, typographer: false, maxNesting: MAX_NESTING });

const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]!.attrSet('rel', 'nofollow noopener noreferrer');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

function checkBlocks(state: { env: unknown; tokens: unknown[] }): void {
  const env = state.env as RenderEnv;
  if (state.tokens.length > env.limits.maxBlockTokens)
    throw new Stop('has too many blocks (paragraphs, list items, table cells) to format');
  if (env.limits.now() > env.blockDeadline) throw new Stop('takes too long to format');
}

// First in the block chain, so it runs before every block at every depth, and listed as a terminator
// of paragraphs, quotes, lists and tables, so it also runs on each of their lines: a check, never a match.
md.block.ruler.before(
  'table',
  'budget',
  (state) => {
    checkBlocks(state);
    return false;
  },
  { alt: ['paragraph', 'reference', 'blockquote', 'list'] },
);

// The same checks once the block pass is over: one block (a long table) can add many tokens at once.
md.core.ruler.after('block', 'budget', (state) => checkBlocks(state));

// markdown-it would skip the lines of a container at the nesting limit without a word.
type Tokenize = (state: { level: number; skipEmptyLines(line: number): number }, start: number, end: number) => void;
const tokenize = md.block.tokenize.bind(md.block) as Tokenize;
(md.block as unknown as { tokenize: Tokenize }).tokenize = (state, start, end) => {
  if (state.level >= MAX_NESTING && state.skipEmptyLines(start) < end)
    throw new Stop(`nests quotes or lists more than ${MAX_NESTING} levels deep`);
  tokenize(state, start, end);
};

// markdown-it's core `inline` rule with a budget: the same loop, but a paragraph past a limit gets one
// text child (escaped by the renderer) instead of a parse.
md.core.ruler.at('inline', (state) => {
  const env = state.env as unknown as RenderEnv;
  env.inlineDeadline ??= env.limits.now() + env.limits.inlineMs;
  for (const tok of state.tokens) {
    if (tok.type !== 'inline') continue;
    if (tok.content.length > env.limits.maxInlineChars || env.limits.now() > env.inlineDeadline) {
      const text = new state.Token('text', '', 0);
      text.content = tok.content;
      tok.children = [text];
      env.plain++;
    } else {
      state.md.inline.parse(tok.content, state.md, state.env, (tok.children ??= []));
    }
  }
});

/** Binding content as the HTML of a public page, within `limits` (a note says what was shown as text). */
export function renderMarkdown(source: string, limits: RenderLimits = RENDER_LIMITS): string {
  if (source.length > limits.maxChars) return asText(source, `is long (${Math.round(source.length / 1024)} KB)`);
  const env: RenderEnv = { limits, blockDeadline: limits.now() + limits.blockMs, plain: 0 };
  let html: string;
  try {
    html = md.render(source, env as unknown as Record<string, unknown>);
  } catch (err) {
    if (err instanceof Stop) return asText(source, err.why);
    throw err;
  }
  if (env.plain === 0) return html;
  const n = env.plain;
  return `${note(`${n} paragraph${n === 1 ? ' is' : 's are'} too long or too costly to format and ${n === 1 ? 'is' : 'are'} shown as plain text.`)}${html}`;
}

/** Markdown rendered as markup a view may insert as is (the renderer sanitizes; see renderMarkdown). */
export function markdownHtml(source: string): Html {
  return trusted(renderMarkdown(source));
}

function asText(source: string, why: string): string {
  return `${note(`This document ${why}, so it is shown as plain text. The Markdown link above has the file.`)}${html`<pre class="source">${source}</pre>`}\n`;
}

function note(text: string): string {
  return `${html`<p class="note">${text}</p>`}\n`;
}
