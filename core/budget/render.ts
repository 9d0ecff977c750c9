import type { VersionFacts } from './facts.ts';
import { cardCut, clip as cutCard, oneLine, type CardCut } from './card-cut.ts';
import { clip } from '../clip.ts';

/** The facts a card is rendered from: the version's facts and its stored cut. */
export type CardFacts = VersionFacts & { headCut: string };

/** The public and Markdown URLs of a binding. */
export function bindingUrls(publicBase: string, spaceSlug: string, bindingSlug: string) {
  const publicUrl = `${publicBase}/@${spaceSlug}/${bindingSlug}`;
  return { publicUrl, textUrl: `${publicUrl}?format=md` };
}

/**
 * Stored text between fence lines. The fence is random and absent from the text (chosen after the
 * text was fixed), so the text can never write the closing line itself: whatever it holds (a fake
 * `</content>`, a fake card, a guessed fence) stays inside. Ends with a newline.
 */
export function fenced(text: string, fence: string, attrs = ''): string {
  return `<content fence="${fence}"${attrs}>\n${text}\n</content fence="${fence}">\n`;
}

/** Tier 2 addition: the full content (or one page of it) between fence lines. */
export function renderContent(content: string, fence: string, page?: { index: number; count: number }): string {
  return fenced(content, fence, page ? ` page="${page.index}/${page.count}"` : '');
}

/** The preview as structured content shows it: with the truncation note when content continues. */
export function previewWithNote(v: Pick<VersionFacts, 'contentPreview' | 'contentChars'>): string {
  const left = v.contentChars - v.contentPreview.length;
  if (left <= 0) return v.contentPreview;
  return `${v.contentPreview}\n${truncationNote(left)}`;
}

function truncationNote(left: number): string {
  return `(... truncated ${left} characters. Request tier 2 for full content.)`;
}

function provenance(v: Pick<VersionFacts, 'source' | 'model'>, cut: CardCut): string {
  return v.model ? `${v.source}/${cutCard(oneLine(v.model), cut.m)}` : v.source;
}

/** The card's closing note naming what it left for tier 1.5, if anything. */
function cardNote(v: CardFacts, cut: CardCut): string[] {
  const parts: string[] = [];
  if (cut.n !== undefined) parts.push('the full name');
  if (cut.m !== undefined) parts.push('the full model name');
  if (cut.s !== undefined) parts.push('the rest of the summary');
  const rest = v.keyPoints.length - cut.k;
  if (rest > 0) parts.push(`${rest} more key point${rest === 1 ? '' : 's'}`);
  if (parts.length === 0) return [];
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return [`- …${list} at tier 1.5`];
}

/**
 * Tier 1 block: heading, facts line, URL, summary and key points, as far as the stored cut allows.
 * Every author field follows a fixed label on a line of its own. Ends with a newline.
 */
export function renderHead(v: CardFacts, publicBase: string): string {
  const { textUrl } = bindingUrls(publicBase, v.spaceSlug, v.bindingSlug);
  const date = new Date(v.createdAt).toISOString().slice(0, 10);
  const cut = cardCut(v);
  const lines = [
    `### ${cutCard(oneLine(v.name), cut.n)}`,
    `${v.bindingId} · v${v.number} · @${v.spaceSlug} · ${v.contentTokenCount} content tokens · ${provenance(v, cut)} · ${date}`,
    `md: ${textUrl}`,
    `Summary: ${cutCard(oneLine(v.summary), cut.s)}`,
    ...v.keyPoints.slice(0, cut.k).map((k) => `- ${oneLine(k)}`),
    ...cardNote(v, cut),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Tier-0 line sizes, in characters. A line costs ~13 tokens of id before anything else, so every
 * word counts: a name says what a document is when it is long enough to, and only a short name
 * ("Usage", "ms") is followed by a gist that fills the line up to LINE_GIST_UNTIL characters. Measured
 * on the everyday-question corpus (bench/everyday.bench.ts): a 60-character gist on every line cost
 * 32 tokens a line (27 lines in 900 tokens); this way a line costs ~26 (33 lines).
 */
export const LINE_NAME_CHARS = 60;
/** A name shorter than this gets a gist. */
export const LINE_GIST_BELOW = 16;
/** Name and gist together stay within this many characters. */
export const LINE_GIST_UNTIL = 40;

/** One line of text cut to at most `chars` characters (core/clip.ts), at a word boundary when one is near, without dangling punctuation before the "…". */
function shorten(text: string, chars: number): string {
  const s = oneLine(text);
  const cut = clip(s, chars, { word: true });
  return cut === s ? s : `${cut.slice(0, -1).replace(/[\s,;:.]+$/, '')}…`;
}

/** The gist a tier-0 line shows after the name ('' when the name is long enough to say it alone). */
export function gistOf(v: Pick<VersionFacts, 'name' | 'summary'>): string {
  const name = Array.from(shorten(v.name, LINE_NAME_CHARS)).length;
  return name < LINE_GIST_BELOW ? shorten(v.summary, LINE_GIST_UNTIL - name) : '';
}

/**
 * Tier 0: one line per item (id, name, exact content tokens, a gist after a short name), for
 * choosing from a long list cheaply. Made from stored facts only, so its count is stored with the
 * version's other blocks.
 */
export function renderLine(v: Pick<VersionFacts, 'bindingId' | 'name' | 'summary' | 'contentTokenCount'>): string {
  const gist = gistOf(v);
  return `- ${v.bindingId} ${shorten(v.name, LINE_NAME_CHARS)} (${v.contentTokenCount} tokens)${gist ? `: ${gist}` : ''}\n`;
}

/** The lines of tier 1.5 that complete the card: what its cut left out. Each ends with a newline. */
export function cardRestLines(v: CardFacts): string[] {
  const cut = cardCut(v);
  const out: string[] = [];
  if (cut.n !== undefined) out.push(`Name in full: ${oneLine(v.name)}`);
  if (cut.m !== undefined && v.model) out.push(`Model in full: ${oneLine(v.model)}`);
  if (cut.s !== undefined) out.push(`Summary, continued: …${oneLine(v.summary).slice(cut.s)}`);
  const rest = v.keyPoints.slice(cut.k);
  if (rest.length) out.push('More key points:', ...rest.map((k) => `- ${oneLine(k)}`));
  return out.map((l) => `${l}\n`);
}

/** The truncation line after the fenced preview, when content continues past it. */
export function previewTail(v: Pick<VersionFacts, 'contentPreview' | 'contentChars'>): string {
  const left = v.contentChars - v.contentPreview.length;
  return left > 0 ? `${truncationNote(left)}\n` : '';
}

/** Tier 1.5 addition: the rest of the card, then the stored preview between fence lines, then its note. */
export function renderPreview(v: CardFacts): string {
  return `${cardRestLines(v).join('')}Preview:\n${fenced(v.contentPreview, v.fence)}${previewTail(v)}`;
}
