// The card of an imported document: the name, summary and key points a careful reader would write from
// its Markdown, before any limit is applied (core/services/import.ts cuts them). A README's first heading
// is often "Sponsors", "Install" or a logo, its first paragraph a row of badges or a language menu, and
// its sections are bare headings; the name and summary are the heaviest ranking fields and the whole of
// tier 1, so they are derived from the text that actually says what the document is.
import { type CardBlock, clip, isList, leadSentences, listLine, plainText, proseOf, substance } from './card-prose.ts';

export type { CardBlock };

export interface CardHints {
  /** The file's path as imported (`chalk/readme.md`, `guides/setup.md`). */
  fileName: string;
  /** The project the file documents (the `name` of a package.json beside it), when known. */
  projectName?: string;
}

export interface Card {
  name: string;
  summary: string | undefined;
  keyPoints: string[];
}

/** A summary stops adding sentences past this many characters (the first sentence always counts). */
const SUMMARY_CHARS = 300;
/** A summary this short takes the first sentence of the next prose block too (a tagline alone says little). */
const TAGLINE_CHARS = 80;
/** A key point is cut at a word to at most this many characters (the binding's limit). */
const KEY_POINT_CHARS = 160;
const MAX_KEY_POINTS = 8;

/** Section headings that name a part of any README, never the document itself. */
const GENERIC = new Set(
  (
    'install installation installing setup usage use using getting started get started quick start quickstart introduction intro overview features ' +
    'highlights table of contents contents toc sponsors sponsor backers info information about documentation docs api apis api reference reference ' +
    'example examples demo license licence contributing contributors readme why motivation summary background requirements prerequisites changelog ' +
    'faq support credits acknowledgements acknowledgments notes description help status news tests testing maintainers author authors welcome'
  )
    .split(' ')
    .concat(['table of contents', 'getting started', 'get started', 'quick start', 'api reference'])
    .map((w) => w.trim())
    .filter(Boolean),
);
/** Sections that say nothing about what the document is for ("License", "Contributing — AGENTS.md"): never key points. */
const BOILERPLATE =
  /^(?:licen[cs]e|contributing|issues and contributing|contributors?|sponsors?|backers|thank you|thanks|credits|changelog|change log|history|release notes|table of contents|contents|toc|maintainers?|(?:original )?authors?|related|tests?|testing|running tests|support|code of conduct|acknowledge?ments|donate|funding|who'?s using|used by|security policy|see also|links|community|install|installation|installing)$|^(?:licen[cs]e|contributing|code of conduct)\b/;

/** A heading's words for comparison: lower case, decorations (emoji, punctuation) dropped. */
function bare(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A heading without leading or trailing emoji, symbols and separators ("⚡️ Vite ⚡" → "Vite"). */
function tidyHeading(text: string): string {
  const kept = text.replace(/^[^\p{L}\p{N}@(`"'[]+/u, '');
  // The trailing run is found from the end: a pattern anchored there re-read every run of symbols before it.
  let end = kept.length;
  for (;;) {
    // The last character, a surrogate pair read as one (an emoji goes, a letter such as 𝐀 stays).
    const pair = end > 1 && /[\uDC00-\uDFFF]/.test(kept[end - 1]!) && /[\uD800-\uDBFF]/.test(kept[end - 2]!);
    const last = kept.slice(end - (pair ? 2 : 1), end);
    if (end === 0 || KEEP_LAST.test(last)) break;
    end -= last.length;
  }
  return kept.slice(0, end).trim();
}
const KEEP_LAST = /[\p{L}\p{N})`"'\].!?]/u;

const isGeneric = (heading: string) => GENERIC.has(bare(heading)) || GENERIC.has(bare(heading).replace(/s$/, ''));

/** The project a README or index file documents, by its folder (`@octokit/core/README.md` → `@octokit/core`). */
function folderProject(fileName: string): string | undefined {
  const parts = fileName.split(/[\\/]/).filter(Boolean);
  if (parts.length < 2 || !/^(readme|index)(\.[a-z]+)?$/i.test(parts.at(-1)!)) return undefined;
  const dir = parts.at(-2)!;
  const scope = parts.at(-3);
  return scope?.startsWith('@') ? `${scope}/${dir}` : dir;
}

/**
 * The `name` a package.json's text gives (npm's limit, 214 characters), or undefined: the project a
 * README beside it documents. Malformed JSON or no usable name is undefined, never an error.
 */
export function packageNameOf(json: string): string | undefined {
  try {
    const pkg: unknown = JSON.parse(json);
    const n = pkg && typeof pkg === 'object' ? (pkg as { name?: unknown }).name : undefined;
    return typeof n === 'string' && n.trim() && n.length <= 214 ? n.trim() : undefined;
  } catch {
    return undefined;
  }
}

/** Letters-and-digits form for "does this title mention the project?". */
const compact = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * The name: the first heading, unless it is a generic section heading ("Install", "Sponsors") or a
 * lower-level heading that does not mention the project, when the project's name (package.json, or the
 * README's folder) says better what the document is; else the file name.
 */
function cardName(headings: { level: number; text: string }[], hints: CardHints): { name: string; fromHeading: boolean } {
  const project = hints.projectName?.trim() || folderProject(hints.fileName);
  const first = headings[0];
  const title = first ? tidyHeading(first.text) : '';
  if (first && title && !isGeneric(title)) {
    if (project && first.level > 1 && !compact(title).includes(compact(project.replace(/^@[^/]+\//, ''))))
      return { name: `${project}: ${title}`, fromHeading: true };
    return { name: title, fromHeading: true };
  }
  if (project) return { name: project, fromHeading: false };
  if (title) return { name: title, fromHeading: true };
  const base = hints.fileName
    .replace(/^.*[\\/]/, '')
    .replace(/\.(md|markdown|mdx)$/i, '')
    .trim();
  return { name: base || 'Untitled', fromHeading: false };
}

/** A tagline may be followed by this: prose of some length that is not a "Label: value" line. */
const followsTagline = (t: string | undefined) =>
  t !== undefined && !t.endsWith(':') && !/^[^.:]{1,25}:\s/.test(t) && t.split(/\s+/).length >= 8;

/**
 * The summary: the first sentences of the first real prose under the title (a feature list there when
 * it has no prose, else the first prose anywhere); a short tagline takes the first sentences of the
 * text block right after it too.
 */
function cardSummary(blocks: CardBlock[], titleIndex: number | undefined): string | undefined {
  const introEnd = blocks.findIndex((b, i) => b.kind === 'heading' && i > (titleIndex ?? -1) && plainText(b.text));
  const intro = blocks.slice(0, introEnd < 0 ? blocks.length : introEnd);
  const real = (b: CardBlock | undefined) => {
    const t = b && proseOf(b);
    return t === undefined ? undefined : substance(t);
  };
  let at = intro.findIndex((b) => real(b) !== undefined);
  if (at < 0) {
    const list = intro.find(isList);
    if (list) return listLine(list);
    at = blocks.findIndex((b) => real(b) !== undefined);
  }
  if (at >= 0) {
    let summary = leadSentences(real(blocks[at])!, SUMMARY_CHARS);
    const next = real(blocks[at + 1]);
    if (summary.length < TAGLINE_CHARS && followsTagline(next)) {
      const tagline = /[.!?…]$/.test(summary) ? summary : `${summary}.`;
      summary = `${tagline} ${leadSentences(next!, SUMMARY_CHARS - tagline.length - 1)}`;
    }
    return summary;
  }
  // No prose but filing lines, or none at all: the first text block with any letters, as written.
  return blocks
    .filter((b) => b.kind === 'text')
    .map((b) => plainText(b.text.replace(/^\s*>\s?/gm, '')))
    .find((t) => /[\p{L}\p{N}]/u.test(t));
}

/**
 * One section as a key point. A heading that names its subject stands alone; a generic one ("Usage",
 * "API", "Highlights", "Why?") says nothing, so it takes what its section says: its first sentences (with
 * the list a sentence leads into), else its sub-headings (an API section's function names), else its list.
 * Measured on the everyday bench's tuning half (38 questions): first sentences under every heading cost
 * 2 questions at top 5, 47 tokens per card and the retrieval bench's ≤ 2,000-token goal (1,872 → 2,227
 * per task); under generic headings only, +10 tokens per card and no question lost (MRR 0.330 → 0.348).
 */
function sectionPoint(heading: string, body: CardBlock[]): string {
  if (!isGeneric(heading.replace(/^\d+(?:\.\d+)*\.?\s+/, ''))) return heading;
  const at = body.findIndex((x) => {
    const t = proseOf(x);
    return t !== undefined && substance(t) !== undefined;
  });
  if (at >= 0) {
    let lead = leadSentences(substance(proseOf(body[at]!)!)!, KEY_POINT_CHARS - heading.length - 2);
    const next = body[at + 1];
    if (lead.endsWith(':') && next && isList(next)) lead = `${lead} ${listLine(next)}`;
    return `${heading}: ${lead}`;
  }
  const subs = body
    .filter((x) => x.kind === 'heading')
    .map((x) => tidyHeading(plainText(x.text)))
    .filter(Boolean);
  if (subs.length) return `${heading}: ${subs.join(', ')}`;
  const list = body.find(isList);
  return list ? `${heading}: ${listLine(list)}` : heading;
}

/** Key points: one per main section (the highest heading level after the title), boilerplate left out. */
function cardKeyPoints(blocks: CardBlock[], titleIndex: number | undefined): string[] {
  const headings = blocks.map((b, i) => ({ b, i })).filter(({ b, i }) => b.kind === 'heading' && i !== titleIndex && plainText(b.text));
  if (!headings.length) return [];
  const main = Math.min(...headings.map(({ b }) => b.level));
  const points: string[] = [];
  for (const { b, i } of headings) {
    if (b.level !== main) continue;
    const heading = tidyHeading(plainText(b.text)) || plainText(b.text);
    if (BOILERPLATE.test(bare(heading))) continue;
    const end = blocks.findIndex((x, j) => j > i && x.kind === 'heading' && x.level <= main);
    points.push(clip(sectionPoint(heading, blocks.slice(i + 1, end < 0 ? blocks.length : end)), KEY_POINT_CHARS));
    if (points.length >= MAX_KEY_POINTS) break;
  }
  return points;
}

/** The card of a Markdown document from its blocks (pure); limits are the caller's to apply. */
export function describeDocument(blocks: CardBlock[], hints: CardHints): Card {
  const headingIdx = blocks.findIndex((b) => b.kind === 'heading' && plainText(b.text));
  const headings = headingIdx < 0 ? [] : [{ level: blocks[headingIdx]!.level, text: plainText(blocks[headingIdx]!.text) }];
  const { name, fromHeading } = cardName(headings, hints);
  // The heading that named the document is its title, not a section; so is a generic first H1 a
  // project name replaced, when other sections follow at its level.
  const titleIndex = headingIdx >= 0 && (fromHeading || blocks[headingIdx]!.level === 1) ? headingIdx : undefined;
  return {
    name,
    summary: cardSummary(blocks, titleIndex ?? (headingIdx >= 0 ? headingIdx : undefined)),
    keyPoints: cardKeyPoints(blocks, titleIndex),
  };
}
