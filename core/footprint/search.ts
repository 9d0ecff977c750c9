import type { AnyTool } from '../tools/define';

/** Score weights: exact name > word in name > word in description or aliases > category (issue 4). */
export const WEIGHTS = { exactName: 100, nameWord: 10, aliasPhrase: 6, textWord: 3, category: 2 } as const;

const STOPWORDS = new Set(
  'a an and are as at be by can do for from get i in is it me my of on or please show some that the this to up use want what with you your'.split(' '),
);
/** At most this many distinct query words are scored (a 10 KB query is refused earlier by the schema). */
const MAX_WORDS = 32;

/** Lower-case words without punctuation; a trailing plural "s" is dropped so "sets" finds "set". */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(stem);
}

function stem(w: string): string {
  return w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w;
}

interface Indexed {
  tool: AnyTool;
  nameWords: Set<string>;
  textWords: Set<string>;
  aliasPhrases: string[];
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
      aliasPhrases: aliases.map((a) => words(a).join(' ')).filter(Boolean),
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
  const q = [...new Set(words(query).filter((w) => !STOPWORDS.has(w)))].slice(0, MAX_WORDS);
  const phrase = words(query).join(' ');
  const asName = query.trim().toLowerCase().replace(/[\s-]+/g, '_');
  const out: ToolMatch[] = [];
  tools.forEach((tool) => {
    const ix = indexed(tool);
    let score = asName === tool.name ? WEIGHTS.exactName : 0;
    for (const w of q) {
      if (ix.nameWords.has(w)) score += WEIGHTS.nameWord;
      else if (ix.textWords.has(w)) score += WEIGHTS.textWord;
      if (w === ix.category) score += WEIGHTS.category;
    }
    for (const a of ix.aliasPhrases) if (a.includes(' ') && ` ${phrase} `.includes(` ${a} `)) score += WEIGHTS.aliasPhrase;
    if (score > 0) out.push({ tool, score });
  });
  return out.map((m, i) => ({ m, i })).sort((a, b) => b.m.score - a.m.score || a.i - b.i).map(({ m }) => m);
}

/** First sentence of a description, at most `max` characters: the one line search results show. */
export function oneLineDescription(description: string, max = 140): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)/);
  const first = end >= 0 ? flat.slice(0, end + 1) : flat;
  return first.length <= max ? first : `${first.slice(0, max - 1).trimEnd()}…`;
}
