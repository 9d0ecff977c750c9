import { sectionBody } from '../../search/score.ts';
import type { BindingVersionRow } from '../../../db/store/bindings.ts';
import { headingOnlyRead, renderSection, sectionPath, SUBSECTIONS_NAMED, type SectionIndex } from '../../budget/outline.ts';
import { splitPages } from '../../budget/page.ts';
import { headingSlug } from '../../budget/sections.ts';
import { loadedSections, renderContent, renderLine, tierObject } from '../../budget/tier.ts';
import { cutToFit } from '../../budget/cut.ts';
import { issueCursor, readCursor } from '../../cursor.ts';
import type { ToolContext } from '../../context.ts';
import { BinderyError, fail } from '../../errors.ts';
import { line, type Piece } from '../../tokens/doc.ts';
import { freshCounts, loadSections } from '../../services/counts.ts';
import { facts, type BindingView } from '../views.ts';

/** Room left for framing when a section read must be paged (as for tier 2). */
const PAGE_MARGIN = 200;
/** Valid ids a "no such section" error names at most. */
const IDS_NAMED = 12;

/** The section `id` of a version, or a NOT_FOUND naming `section` and a few ids that exist. */
export function findSection(index: SectionIndex, id: string, row: Pick<BindingVersionRow, 'bindingId' | 'number'>): number {
  const i = index.sections.findIndex((s) => s.id === id);
  if (i >= 0) return i;
  // A heading, or an id written as search shows it ("§install"), names its section too: models guess an
  // id from a heading a card listed ("Approval limits"). The first section it names, as ids are given out.
  const named = headingSlug(id.replace(/^[§#\s]+/, ''));
  const byName =
    named === 'untitled' ? -1 : index.sections.findIndex((s) => s.id === named || (s.heading !== '' && headingSlug(s.heading) === named));
  if (byName >= 0) return byName;
  const ids = index.sections.slice(0, IDS_NAMED).map((s) => `"${s.id}"`);
  const more =
    index.sections.length > IDS_NAMED ? ` and ${index.sections.length - IDS_NAMED} more (tier "1.5" lists them in its outline)` : '';
  const valid = ids.length ? `its sections are ${ids.join(', ')}${more}` : 'it has no sections (its content is blank)';
  return fail404(`section: "${id}" is not a section of ${row.bindingId} v${row.number}; ${valid}.`);
}

function fail404(message: string): never {
  throw new BinderyError('NOT_FOUND', message, 'section', 'Use one of the section ids named above.');
}

/**
 * One section of a version: its heading path and text between fence lines, at its stored cost. A section that would pass the response cap comes in pages with a cursor, as tier 2
 * does; only that path counts at read time.
 */
export async function renderSectionRead(
  row: BindingVersionRow,
  sectionId: string,
  ctx: ToolContext,
  cursor?: string,
  maxTokens?: number,
): Promise<{ pieces: Piece[]; view: BindingView }> {
  await freshCounts(ctx, [row]);
  await loadSections(ctx, [row]);
  const index = loadedSections(row);
  const i = findSection(index, sectionId, row);
  const s = index.sections[i]!;
  const text = row.content!.slice(s.start, s.end);
  const base = ctx.config.publicUrl;
  // The reader came from a search hit or an outline, which named the document: a whole section read is
  // the section block alone, so it costs exactly the `tokens` those advertised. A paged read (a section
  // past the response cap) starts each page with the document's stored one line.
  const head: Piece = { text: renderLine(facts(row)), tokens: row.lineBlockTokens };
  const section = { id: s.id, heading: s.heading, path: sectionPath(index.sections, i), tokens: s.tokens };
  const card = tierObject(facts(row), '1', base);
  if (maxTokens !== undefined && s.tokens > maxTokens) {
    if (cursor) throw fail.invalid('cursor', 'a section cut to maxTokens is not paged; omit cursor');
    // Only a heading: fewer of its subsections named, counted exactly.
    await ctx.tokens.load();
    for (let most = SUBSECTIONS_NAMED - 1; most > 0; most--) {
      const only = headingOnlyRead(index.sections, i, text, most);
      if (!only) break;
      const tokens = ctx.tokens.count(only);
      if (tokens <= maxTokens) return { pieces: [{ text: only, tokens }], view: { ...card, section: { ...section, content: text } } };
    }
    // A cut spends its room on the section's text, not on its heading line (the frame names the section).
    return cutSectionRead(row, index, i, sectionBody(row.content!, s).replace(/^\n+/, ''), maxTokens, ctx, { head, card, section });
  }
  if (row.lineBlockTokens + s.tokens + PAGE_MARGIN <= ctx.config.maxResponseTokens) {
    if (cursor) throw fail.invalid('cursor', 'this section is not paged; omit cursor');
    return {
      pieces: [{ text: renderSection(index.sections, i, text, row.fence), tokens: s.tokens }],
      view: { ...card, section: { ...section, content: text } },
    };
  }
  await ctx.tokens.load();
  // The path line and section attribute come on every page: taken off the room splitPages has.
  const frame =
    ctx.tokens.count(renderSection(index.sections, i, '', row.fence, { index: 999, count: 999 })) -
    ctx.tokens.count(renderContent('', row.fence, { index: 999, count: 999 }));
  const pages = splitPages(text, ctx.config.maxResponseTokens - row.lineBlockTokens - PAGE_MARGIN - frame, ctx.tokens, row.fence);
  const scope = `section:${row.bindingId}:${row.number}:${s.id}`;
  const at = await readCursor(ctx.db, cursor, scope);
  if (at >= pages.length) throw fail.invalid('cursor', 'points past the last page');
  const nextCursor = at + 1 < pages.length ? await issueCursor(ctx.db, { scope, offset: at + 1 }) : null;
  const page = { index: at + 1, count: pages.length };
  return {
    pieces: [
      head,
      { text: renderSection(index.sections, i, pages[at]!, row.fence, page) },
      line(
        nextCursor
          ? `Page ${page.index} of ${page.count}. Next page: the same call with cursor "${nextCursor}".`
          : `Page ${page.index} of ${page.count} (last).`,
      ),
    ],
    view: { ...card, section: { ...section, content: pages[at]! }, page: { ...page, nextCursor } },
  };
}

/** Tokens a cut needs besides the document line and its framing: below this a cut says nothing. */
const MIN_CUT_TOKENS = 8;

/**
 * A section larger than `maxTokens` with the document line: its beginning, cut at a line or sentence
 * boundary to fit, counted exactly, and a line with the whole section's cost and how to read it all.
 */
async function cutSectionRead(
  row: BindingVersionRow,
  index: SectionIndex,
  i: number,
  text: string,
  maxTokens: number,
  ctx: ToolContext,
  parts: { head: Piece; card: ReturnType<typeof tierObject>; section: { id: string; heading: string; path: string[]; tokens: number } },
): Promise<{ pieces: Piece[]; view: BindingView }> {
  await ctx.tokens.load();
  const rest = line(`Cut to fit: the whole section is ${parts.section.tokens} tokens (omit maxTokens).`);
  const restTokens = ctx.tokens.count(rest.text);
  const frame = ctx.tokens.count(renderSection(index.sections, i, '', row.fence, 'cut'));
  // No document line here: the section line and fence name the section, and every token goes to its text.
  const fixed = restTokens;
  let room = maxTokens - fixed - frame;
  if (room < MIN_CUT_TOKENS) {
    throw fail.invalid(
      'maxTokens',
      `is ${maxTokens} but a cut of section "${parts.section.id}" needs at least ${fixed + frame + MIN_CUT_TOKENS} tokens here; raise it, or omit it to read the whole section (${parts.section.tokens} tokens)`,
    );
  }
  // The block is counted whole (its seams inside the fence can merge): shrink the room until it fits.
  for (;;) {
    const cut = cutToFit(text, room, ctx.tokens);
    const block = renderSection(index.sections, i, cut.text, row.fence, 'cut');
    const n = ctx.tokens.count(block);
    if (fixed + n <= maxTokens) {
      return {
        pieces: [
          { text: block, tokens: n },
          { text: rest.text, tokens: restTokens },
        ],
        view: {
          ...parts.card,
          section: { ...parts.section, content: cut.text, cut: { tokens: n, restTokens: Math.max(0, parts.section.tokens - n) } },
        } as BindingView,
      };
    }
    room -= fixed + n - maxTokens;
  }
}
