import { clip as clipText } from '../clip.ts';

/**
 * What the tier-1 card shows of the author's fields. Chosen by tokens at write time (card-fit.ts) and
 * stored as compact JSON in `headCut`, so a read reproduces the card by slicing, never by tokenizing.
 * `k`: how many key points the card shows (the first k). `n`, `m`, `s`: the card shows only that many
 * characters of the (one-lined) name, model and summary, then "…"; absent means shown in full.
 */
export interface CardCut {
  k: number;
  n?: number;
  m?: number;
  s?: number;
}

/**
 * Characters of name, model, summary and key points a card showed before cuts were chosen by tokens.
 * Only rows without a stored cut ('' until recounted) use it.
 */
export const HEAD_TEXT_CHARS = 1100;

type CutFields = { name: string; model: string | null; summary: string; keyPoints: string[]; headCut: string };

/** The stored cut as JSON (only the fields that cut something). */
export function encodeCut(cut: CardCut): string {
  const out: CardCut = { k: cut.k };
  for (const f of ['n', 'm', 's'] as const) if (cut[f] !== undefined) out[f] = cut[f];
  return JSON.stringify(out);
}

/** The cut a version's card uses: the stored one, or for rows without one the character rule. */
export function cardCut(v: CutFields): CardCut {
  const stored = v.headCut ? parseCut(v.headCut) : undefined;
  return stored ?? legacyCut(v);
}

function parseCut(text: string): CardCut | undefined {
  try {
    const c = JSON.parse(text) as Record<string, unknown>;
    const whole = (x: unknown) => x === undefined || (Number.isInteger(x) && (x as number) >= 0);
    if (!Number.isInteger(c.k) || !whole(c.n) || !whole(c.m) || !whole(c.s)) return undefined;
    return c as unknown as CardCut;
  } catch {
    return undefined;
  }
}

/** Key points in order while name, model, summary and key points stay within HEAD_TEXT_CHARS. */
function legacyCut(v: CutFields): CardCut {
  let used = v.name.length + (v.model?.length ?? 0) + v.summary.length;
  let k = 0;
  while (k < v.keyPoints.length && (k === 0 || used + v.keyPoints[k]!.length <= HEAD_TEXT_CHARS)) used += v.keyPoints[k++]!.length;
  return { k };
}

/** `text` cut after `chars` characters with a visible "…" (core/clip.ts: never inside a surrogate pair), or whole when the cut keeps it all. */
export function clip(text: string, chars: number | undefined): string {
  return chars === undefined || chars >= text.length ? text : clipText(text, chars + 1);
}

export { oneLine } from '../text.ts';
