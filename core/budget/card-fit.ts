import type { TokenCounter } from '../tokens/counter.ts';
import { encodeCut, oneLine, type CardCut } from './card-cut.ts';
import { renderHead } from './render.ts';
import type { VersionFacts } from './facts.ts';

/**
 * The most tokens a tier-1 card (the head block) may take, for any name, summary, key points and model
 * within the field limits in any script. With the smallest response cap (1000) this leaves room for
 * list framing around a card and, in a paged tier-1.5 or tier-2 answer, for a page of at least 500
 * tokens: every tier of every binding stays readable under every allowed cap.
 */
export const HEAD_TOKEN_BOUND = 300;
/** Tokens a long model name may keep on a card that must be cut (the full name moves to tier 1.5). */
const MODEL_TOKENS = 24;
/** Tokens a long name keeps while the summary is fitted; it gets back whatever the summary leaves. */
const NAME_TOKENS = 60;

/**
 * Chooses what the card shows so that it is at most HEAD_TOKEN_BOUND tokens, counting each candidate
 * exactly: all key points if they fit, else the most that do; when even none fit, a long model name
 * and a long name are cut first, the summary is cut to what is left, and the name gets back the room a
 * short summary leaves. Cuts fall between graphemes. Returns the smallest card it found when no cut
 * fits (only fixed lines too long for the bound, e.g. a huge BINDERY_PUBLIC_URL); the writer refuses it.
 */
export function fitCard(v: VersionFacts, publicBase: string, tokens: TokenCounter): { headCut: string; headBlockTokens: number } {
  const count = (c: CardCut) => tokens.count(renderHead({ ...v, headCut: encodeCut(c) }, publicBase));
  const done = (c: CardCut, n = count(c)) => ({ headCut: encodeCut(c), headBlockTokens: n });
  const all = count({ k: v.keyPoints.length });
  if (all <= HEAD_TOKEN_BOUND) return done({ k: v.keyPoints.length }, all);
  const none = v.keyPoints.length ? count({ k: 0 }) : all;
  if (none <= HEAD_TOKEN_BOUND) {
    for (let k = v.keyPoints.length - 1; k > 0; k--) {
      const n = count({ k });
      if (n <= HEAD_TOKEN_BOUND) return done({ k }, n);
    }
    return done({ k: 0 }, none);
  }
  const name = oneLine(v.name);
  const model = v.model ? oneLine(v.model) : '';
  const summary = oneLine(v.summary);
  const cut: CardCut = { k: 0 };
  if (model && tokens.count(model) > MODEL_TOKENS) cut.m = longestPrefix(model, (i) => tokens.count(model.slice(0, i)) <= MODEL_TOKENS);
  if (tokens.count(name) > NAME_TOKENS) cut.n = longestPrefix(name, (i) => tokens.count(name.slice(0, i)) <= NAME_TOKENS);
  const fits = (c: CardCut) => count(c) <= HEAD_TOKEN_BOUND;
  if (!fits(cut)) {
    // Fixed lines and a cut name leave too little even for "Summary: …": the name gives way first.
    if (!fits({ ...cut, s: 0 }))
      cut.n = Math.max(
        0,
        longestPrefix(name, (i) => fits({ ...cut, n: i, s: 0 })),
      );
    cut.s = Math.max(
      0,
      longestPrefix(summary, (i) => fits({ ...cut, s: i })),
    );
  } else if (cut.n !== undefined) {
    cut.n = Math.max(
      cut.n,
      longestPrefix(name, (i) => fits({ ...cut, n: i })),
    );
  }
  if (cut.n !== undefined && cut.n >= name.length) delete cut.n;
  return done(cut);
}

/**
 * The longest prefix length of `text`, at a grapheme boundary, for which `ok` holds (-1 if none).
 * Token counts of prefixes are nearly monotone, so a galloping then binary search finds it in a few
 * counts, short prefixes first (a dense script makes every long prefix a costly count); only lengths
 * that passed `ok` are ever returned.
 */
function longestPrefix(text: string, ok: (chars: number) => boolean): number {
  const ends = graphemeEnds(text);
  if (!ok(0)) return -1;
  let lo = 0;
  let hi = ends.length - 1;
  for (let step = 8; lo + step < hi; step *= 2) {
    if (!ok(ends[lo + step]!)) {
      hi = lo + step - 1;
      break;
    }
    lo += step;
  }
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ok(ends[mid]!)) lo = mid;
    else hi = mid - 1;
  }
  return ends[lo]!;
}

/** The longest grapheme kept whole (an emoji ZWJ family or a tag flag is under 16 UTF-16 units). */
const MAX_GRAPHEME = 32;

/**
 * 0 and the end offset of every grapheme, so a cut never splits an emoji sequence or a surrogate pair.
 * A longer cluster (a run of conjoining Hangul jamo, stacked combining marks) is split between code
 * points instead, or one cluster could leave no place to cut a whole field.
 */
function graphemeEnds(text: string): number[] {
  const ends = [0];
  for (const { index, segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) {
    if (segment.length > MAX_GRAPHEME) {
      let at = index;
      for (const cp of segment) ends.push((at += cp.length));
    } else {
      ends.push(index + segment.length);
    }
  }
  return ends;
}
