// Reading Markdown text blocks as a careful reader does (core/services/card.ts uses it): the words a
// reader sees, whether a block is prose worth quoting (not badges, a link menu, a callout, a command or
// code), its sentences, and its lead once filing lines ("Owner: …", "Version 4.1 …") are left aside.

import { withoutComments } from '../text.ts';

/** A block of Markdown as the import reads it: a heading, or a text block (inline Markdown as written). */
export interface CardBlock {
  kind: 'heading' | 'text';
  level: number;
  text: string;
}

const ENTITIES: Record<string, string> = {
  nbsp: ' ',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  middot: '·',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  copy: '©',
};

/**
 * Inline Markdown/HTML reduced to the words a reader sees: images dropped, links to their text, entities
 * decoded. Every pattern stops at the next bracket or tag opening, so text made of unclosed ones ("[[[[",
 * "<a <a <a") is read in one pass; a link target may hold one level of parentheses.
 */
export function plainText(md: string): string {
  return withoutComments(md)
    .replace(/!\[[^\][]*\](?:\((?:[^()]|\([^()]*\))*\)|\[[^\][]*\])?/g, ' ')
    .replace(/\[([^\][]*)\]\((?:[^()]|\([^()]*\))*\)|\[([^\][]*)\]\[[^\][]*\]/g, (_m, a, b) => a ?? b ?? '')
    .replace(/<(https?:[^<>\s]+)>/g, '$1')
    .replace(/<\/?[A-Za-z][^<>]*>/g, ' ')
    .replace(/`([^`\n]+)`/g, '$1')
    .replace(/\*\*|__/g, '')
    .replace(/(^|[^\p{L}\p{N}])[*_]([^*_\n]+)[*_](?=[^\p{L}\p{N}]|$)/gu, '$1$2')
    .replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') {
        const code = e[1]?.toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : ' ';
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** Links, images and separators of a text block, and the words left outside them. */
function linkShare(raw: string): { links: number; wordsOutside: number } {
  const links = (raw.match(/\[[^\][]*\]\((?:[^()]|\([^()]*\))*\)|\[[^\][]*\]\[[^\][]*\]|<a\s[^<>]*>|<img\s[^<>]*>|!\[[^\][]*\]/gi) ?? [])
    .length;
  const outside = raw
    .replace(/\[(?:[^[\]]|\[[^\][]*\])*\]\((?:[^()]|\([^()]*\))*\)|\[(?:[^[\]]|\[[^\][]*\])*\]\[[^\][]*\]|!\[[^\][]*\]/g, ' ')
    .replace(/<a\s[^<>]*>(?:(?!<a\s)[\s\S])*?<\/a>|<[^<>]+>/gi, ' ');
  return { links, wordsOutside: (plainText(outside).match(/\p{L}{2,}/gu) ?? []).length };
}

const ADMONITION =
  /^\s*(?:>\s*)?(?:\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]|\**(?:note|tip|protip|pro tip|important|warning|caution|notice|deprecated|heads up)\**\s*[:!])/i;
/** "Read this in other languages: English | 中文" and its kin. */
const LANGUAGE_MENU = /\b(?:other languages|translations?|languages?)\s*:/i;
const CODE_LIKE =
  /^\s*(?:\$\s|npm\s|npx\s|yarn\s|pnpm\s|bun\s|deno\s|import\s|export\s|const\s|let\s|var\s|require\(|<\?)|\brequire\(|=>|;\s*$/;

/**
 * The text of a block when it is prose a reader would quote, else undefined: not badges, images or a
 * link menu ("English | 中文", "Website • Docs • Discord"), not a callout, a command, code, a table or a
 * list, and at least three words of letters.
 */
export function proseOf(block: CardBlock): string | undefined {
  if (block.kind !== 'text') return undefined;
  const raw = block.text.replace(/^\s*>\s?/gm, '');
  if (/^\s*\|/.test(raw) || isList(block) || ADMONITION.test(block.text) || CODE_LIKE.test(raw)) return undefined;
  const { links, wordsOutside } = linkShare(raw);
  if (links >= 3 && wordsOutside < 2) return undefined;
  const text = plainText(raw);
  if (CODE_LIKE.test(text) || LANGUAGE_MENU.test(text) || /^`[^`]*`$/.test(raw.trim())) return undefined;
  const items = text.split(/\s+[|•·]\s+/);
  if (items.length >= 2 && items.every((i) => i.split(/\s+/).length <= 3)) return undefined;
  const words = text.replace(/https?:\/\/\S+/g, ' ').match(/\p{L}[\p{L}\p{N}'’-]*/gu) ?? [];
  if (words.length < 3) return undefined;
  if (text.endsWith(':') && words.length < 8) return undefined;
  return text;
}

/** A list's items as one line: "a; b; c" (an item that ends a sentence is followed by a space only). */
export const listLine = (b: CardBlock) =>
  b.text
    .split(/\n(?=\s*(?:[-*+]|\d+[.)])\s)/)
    .map((item) => plainText(item.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')))
    .filter(Boolean)
    .map((item, i, all) => (i === all.length - 1 || /[.!?;:]$/.test(item) ? item : `${item};`))
    .join(' ');

export const isList = (b: CardBlock) => b.kind === 'text' && /^\s*(?:[-*+]|\d+[.)])\s/.test(b.text);

const ABBREVIATION = /\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|no|Dr|Mr|Mrs|Ms|St|Inc|Ltd|v\d+(?:\.\d+)*)\.$/i;

/**
 * True when the text from `start` to `end` ends with an abbreviation. Only its last characters are read:
 * a sentence that never ends ("e.g. A e.g. A …") was re-read whole at each of its full stops.
 */
function abbreviated(text: string, start: number, end: number): boolean {
  const from = Math.max(start, end - ABBREVIATION_CHARS);
  const m = ABBREVIATION.exec(text.slice(from, end));
  // Cut inside a word, the slice's first letters are not a word's start: look at the letter before.
  return !!m && (m.index > 0 || from === start || !/[A-Za-z0-9_]/.test(text[from - 1]!));
}
const ABBREVIATION_CHARS = 48;

/** Sentences of prose (a full stop after an abbreviation or inside a version number does not end one). */
export function sentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  const re = /[.!?]["'’”)]?(?=\s+["'“(]?[\p{Lu}\p{N}`])/gu;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const end = m.index + m[0].length;
    if (abbreviated(text, start, end)) continue;
    out.push(text.slice(start, end).trim());
    start = end;
  }
  const rest = text.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

/** A sentence that files the document rather than saying what it is ("Owner: Finance.", "Version 4.1, effective 1 April 2025."). */
const METADATA =
  /^(?:version|owners?|status|last (?:reviewed|updated|major revision)|updated|effective|dates?|authors?|notes|attendees|attendance|approved|(?:lead )?maintainers?|deciders|supersedes|severity|incident commander|duration)\b[^.]*(?:[.:]|$)/i;

/** Prose without its leading filing sentences; undefined when nothing else is left. */
export function substance(text: string): string | undefined {
  const all = sentences(text);
  const from = all.findIndex((x) => !METADATA.test(x));
  return from < 0 ? undefined : all.slice(from).join(' ');
}

/** Text cut to at most `chars` characters at a word boundary, the cut marked with "…". */
export function clip(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const cut = text.slice(0, chars - 1);
  const space = cut.search(/\s\S*$/);
  return `${(space > chars / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`;
}

/** Whole sentences from the start of `text` up to about `chars` characters (always the first one). */
export function leadSentences(text: string, chars: number): string {
  const all = sentences(text);
  let out = all[0] ?? '';
  for (const s of all.slice(1)) {
    if (out.length + 1 + s.length > chars) break;
    out += ` ${s}`;
  }
  return out;
}
