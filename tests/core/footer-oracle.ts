// An independent oracle for the omitted-items footer (written out here, not imported from core), shared
// by the budget property suites: the footer strings, and a js-tiktoken count.
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import type { Tier } from '../../core/budget/tier.ts';

const enc = new Tiktoken(o200k);
/** An independent o200k count. */
export const count = (s: string) => enc.encode(s, [], []).length;
const FOOTER_HEAD = 'Omitted (over budget; fetch them by id later):\n';
const omitLine = (id: string, tokens: number, tier: Tier) => `- ${id} · ${tokens} tokens at tier ${tier}\n`;
const moreLine = (m: number) => `- …and ${m} more (ids in _meta.context.budget.omitted)\n`;
/** The one-line form the footer shrinks to. */
export const countLine = (m: number) => `Omitted: ${m} item${m === 1 ? '' : 's'} over budget; ids in _meta.context.budget.omitted.\n`;

/** Every footer the text may end with for these omitted items (in order), richest first. */
export function footerForms(omitted: { id: string; tokens: number }[], tier: Tier): string[] {
  const m = omitted.length;
  if (m === 0) return [''];
  const forms: string[] = [];
  for (let k = Math.min(m, 10); k >= 1; k--)
    forms.push(
      FOOTER_HEAD +
        omitted
          .slice(0, k)
          .map((o) => omitLine(o.id, o.tokens, tier))
          .join('') +
        (k < m ? moreLine(m - k) : ''),
    );
  return [...forms, countLine(m)];
}
