import { STOP_WORDS, stem } from '../../db/text/analyzer.ts';
import type { AnyTool } from '../tools/define.ts';
import { clip } from '../clip.ts';

/** Score weights: exact name > word in name > word in description or aliases > category (tests/core/footprint.test.ts). */
export const WEIGHTS = { exactName: 100, nameWord: 10, aliasPhrase: 6, textWord: 3, category: 2 } as const;
/** A near match (one word a short extension of the other) scores this share of an exact one. */
const NEAR = 0.8;

/** Besides the analyzer's stop words: how people ask for a tool ("please show me a tool to get …"). */
const ASKING = 'get please show some up use want'.split(' ');
/** Stop words as stems: words() stems before content() filters. */
const STOPPED = new Set([...STOP_WORDS, ...ASKING].map(stem));
/** At most this many distinct query words are scored (a 10 KB query is refused earlier by the schema). */
const MAX_WORDS = 32;

/** Lower-case words without punctuation, stemmed by the one analyzer (so "sets" finds "set"). */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(stem);
}

function content(ws: string[]): string[] {
  return ws.filter((w) => !STOPPED.has(w));
}

const ENDINGS = new Set(['d', 'ed', 'er', 'es', 'ing', 'set']);
/** "load"/"loaded", "tool"/"toolset", "share"/"shared": the longer is the shorter (≥ 4 letters) plus a common ending. */
function near(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 4 && long.startsWith(short) && ENDINGS.has(long.slice(short.length));
}

/** Exact hit, near hit or none, as a share of the weight. */
function hit(word: string, set: Set<string>): number {
  if (set.has(word)) return 1;
  for (const w of set) if (near(word, w)) return NEAR;
  return 0;
}

interface Indexed {
  tool: AnyTool;
  nameWords: Set<string>;
  textWords: Set<string>;
  /** Each alias as words, in full and without stop words ("edit a note" matches "edit note"). */
  aliasPhrases: { full: string; core: string }[];
  category: string;
}

const indexCache = new WeakMap<AnyTool, Indexed>();

function indexed(tool: AnyTool): Indexed {
  let ix = indexCache.get(tool);
  if (!ix) {
    const aliases = tool.aliases ?? [];
    ix = {
      tool,
      nameWords: new Set(words(tool.name.replace(/_/g, ' '))),
      textWords: new Set([...words(tool.title), ...words(tool.description), ...aliases.flatMap(words)]),
      aliasPhrases: aliases
        .map((a) => ({ full: words(a).join(' '), core: content(words(a)).join(' ') }))
        .filter((a) => a.full.includes(' ')),
      category: stem(tool.category),
    };
    indexCache.set(tool, ix);
  }
  return ix;
}

export interface ToolMatch {
  tool: AnyTool;
  score: number;
}

/** Scores every tool against a free-text query; returns those that match, best first (ties keep registry order). */
export function scoreTools(query: string, tools: readonly AnyTool[]): ToolMatch[] {
  const all = words(query);
  // As the analyzer's contentWords: a query made only of stop words ("who am I") keeps them all.
  const q = [...new Set(content(all).length ? content(all) : all)].slice(0, MAX_WORDS);
  const phrase = ` ${all.join(' ')} `;
  const corePhrase = ` ${content(all).join(' ')} `;
  const asName = query
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const out: ToolMatch[] = [];
  tools.forEach((tool) => {
    const ix = indexed(tool);
    let score = asName === tool.name ? WEIGHTS.exactName : 0;
    for (const w of q) {
      const inName = hit(w, ix.nameWords);
      if (inName) score += inName * WEIGHTS.nameWord;
      else score += hit(w, ix.textWords) * WEIGHTS.textWord;
      if (w === ix.category || near(w, ix.category)) score += WEIGHTS.category;
    }
    for (const a of ix.aliasPhrases) {
      if (phrase.includes(` ${a.full} `) || (a.core.includes(' ') && corePhrase.includes(` ${a.core} `))) score += WEIGHTS.aliasPhrase;
    }
    if (score > 0) out.push({ tool, score });
  });
  return out
    .map((m, i) => ({ m, i }))
    .sort((a, b) => b.m.score - a.m.score || a.i - b.i)
    .map(({ m }) => m);
}

/** First sentence of a description, at most `max` characters: the one line search results show. */
export function oneLineDescription(description: string, max = 140): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)/);
  const first = end >= 0 ? flat.slice(0, end + 1) : flat;
  return clip(first, max, { word: true });
}
