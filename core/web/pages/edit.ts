import { z } from 'zod';
import { HUMAN } from '../../context.ts';
import { BinderyError } from '../../errors.ts';
import { markdownHtml } from '../../http/markdown.ts';
import { parseInput } from '../../http/validate.ts';
import { idPattern } from '../../ids.ts';
import { updateBinding } from '../../services/bindings.ts';
import { contentOf, readBinding } from '../../services/binding-reads.ts';
import { content, keyPoints, name, summary } from '../../tools/schema.ts';
import { definePage, show } from '../page.ts';
import { redirect } from '../respond.ts';
import type { WebRoute } from '../route.ts';
import { editView, type Draft } from '../views/edit.ts';
import { lineDiffs } from './binding.ts';
import { linesOf } from './bindings.ts';

// Editing writes a new version as the person (source human) with `expectedVersion`: if someone (or
// an assistant) saved a version meanwhile, nothing is overwritten. The page then shows theirs and
// keeps yours in the form, with the differences, so the person's text is never lost; saving again
// (now expecting their version) puts yours on top. Preview renders the Markdown on the server, so it
// works without JavaScript.

const ID = `(${idPattern('bnd')})`;

const updateInput = z.strictObject({
  name: name(),
  summary: summary(),
  content: content(),
  keyPoints: keyPoints(),
  expectedVersion: z.number().int().min(1),
});

/** The edit pages' routes (each a definePage or defineAction). */
export const editRoutes: WebRoute[] = [
  {
    method: 'GET',
    path: new RegExp(`^/b/${ID}/edit$`),
    page: definePage({
      async load(ctx, m) {
        const id = m[1]!;
        const row = await readBinding(ctx.core, ctx.user.caller, id, { withContent: true });
        if (row.spaceOwnerId !== ctx.user.caller.id)
          throw new BinderyError('FORBIDDEN', `@${row.spaceSlug} is not yours; you may read this binding but not change it`);
        const draft: Draft = {
          name: row.name,
          summary: row.summary,
          keyPoints: row.keyPoints.join('\n'),
          content: await contentOf(ctx.core, row),
          expectedVersion: row.currentVersion,
        };
        return show({ user: ctx.user, id, draft });
      },
      view: editView,
    }),
  },
  {
    method: 'POST',
    path: new RegExp(`^/b/${ID}/edit$`),
    page: definePage({
      async load(ctx, m) {
        const id = m[1]!;
        const f = ctx.form;
        const draft: Draft = {
          name: f.get('name') ?? '',
          summary: f.get('summary') ?? '',
          keyPoints: f.get('keyPoints') ?? '',
          content: (f.get('content') ?? '').replace(/\r\n/g, '\n'),
          expectedVersion: Number(f.get('expectedVersion')) || 0,
        };
        if (f.get('action') === 'preview') {
          await readBinding(ctx.core, ctx.user.caller, id);
          return show({ user: ctx.user, id, draft, preview: markdownHtml(draft.content) });
        }
        try {
          const input = parseInput(updateInput, { ...draft, keyPoints: linesOf(draft.keyPoints) });
          await ctx.deps.tokens.load();
          const { row } = await updateBinding(ctx.core, ctx.user.caller, id, input, HUMAN);
          return redirect(`/b/${row.bindingId}`);
        } catch (err) {
          if (!(err instanceof BinderyError) || err.code === 'NOT_FOUND' || err.code === 'FORBIDDEN') throw err;
          if (err.code !== 'CONFLICT') return show({ user: ctx.user, id, draft, error: err.message }, err.code === 'TOO_LARGE' ? 413 : 400);
          // Someone saved first: show theirs, keep yours in the form (now on top of theirs).
          const theirs = await readBinding(ctx.core, ctx.user.caller, id, { withContent: true });
          const theirContent = await contentOf(ctx.core, theirs);
          const changes = (await lineDiffs([[theirContent, draft.content]]))?.[0];
          const conflict = { theirs, theirContent, changes };
          return show({ user: ctx.user, id, draft: { ...draft, expectedVersion: theirs.currentVersion }, conflict }, 409);
        }
      },
      view: editView,
    }),
  },
];
