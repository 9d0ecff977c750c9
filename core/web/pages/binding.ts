import { HUMAN } from '../../context.ts';
import { fail } from '../../errors.ts';
import { markdownHtml } from '../../http/markdown.ts';
import { idPattern } from '../../ids.ts';
import { deleteBinding } from '../../services/bindings.ts';
import { contentOf, listVersions, readBinding } from '../../services/binding-reads.ts';
import { addComment, deleteComment, mayComment } from '../../services/comments.ts';
import { deletedBindings, restoreBinding } from '../../services/restore.ts';
import { callTool } from '../../tools/call.ts';
import { TOOLS } from '../../tools/registry.ts';
import { lineDiffPaced, type LineDiff } from '../line-diff.ts';
import { defineAction, definePage, show } from '../page.ts';
import { page, redirect } from '../respond.ts';
import type { WebContext, WebRoute } from '../route.ts';
import { bindingView, diffPageView, trashView } from '../views/binding.ts';
import { busyView } from '../views/errors.ts';
import { createWorkGate } from '../work-gate.ts';
import { costsOf } from './common.ts';
import { shareRowsOf } from './shares.ts';

// A binding's page: the version (current or `?v=`), its exact cost per tier, every version with its
// provenance, a diff between any two, comments (people and assistants told apart) and, for its owner,
// edit, delete and sharing. Every read is access-checked by readBinding first: what a person may not
// read is the one 404.

const ID = `(${idPattern('bnd')})`;
const versionParam = (v: string | null) => (v && /^\d{1,9}$/.test(v) ? Number(v) : undefined);

/** Diff work runs one at a time, eight more may wait; a flood of diff requests slows only itself. */
const diffGate = createWorkGate(1, 8);
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Line diffs of text pairs (line-diff.ts: Myers' diff within a step budget, paced), computed through
 * the diff gate; undefined when the gate is full (the caller answers 503 with diffBusy).
 */
export async function lineDiffs(pairs: [string, string][]): Promise<LineDiff[] | undefined> {
  return diffGate.run(async () => {
    const out: LineDiff[] = [];
    for (const [a, b] of pairs) out.push(await lineDiffPaced(a, b, nextTurn));
    return out;
  });
}

/** The page for a diff the gate turned away. */
export const diffBusy = (ctx: WebContext): Response => page(busyView(ctx.user), 503, { 'Retry-After': '5' });

const bindingPage = definePage({
  async load(ctx: WebContext, m: RegExpExecArray) {
    const id = m[1]!;
    const asked = versionParam(ctx.url.searchParams.get('v'));
    const row = await readBinding(ctx.core, ctx.user.caller, id, { version: asked, withContent: true });
    const content = await contentOf(ctx.core, row);
    const owner = row.spaceOwnerId === ctx.user.caller.id;
    const versions = (await listVersions(ctx.core, row, 0, 200)).rows;
    const comments = (await callTool(ctx.tools(), TOOLS.list_comments, { id, limit: 50 })).comments;
    const commentable = await mayComment(ctx.core, ctx.user.caller, id);
    const shares = owner ? await shareRowsOf(ctx, id) : [];
    return show({
      user: ctx.user,
      id,
      row,
      asked,
      costs: costsOf(row),
      content: markdownHtml(content),
      versions,
      comments: comments.map((comment) => ({ comment, body: markdownHtml(comment.body) })),
      commentable,
      owner,
      shares,
      path: ctx.url.pathname,
    });
  },
  view: bindingView,
});

const diffPage = definePage({
  async load(ctx: WebContext, m: RegExpExecArray) {
    const id = m[1]!;
    const from = versionParam(ctx.url.searchParams.get('from'));
    const to = versionParam(ctx.url.searchParams.get('to'));
    if (from === undefined || to === undefined) throw fail.invalid('from', 'from and to must be version numbers');
    const a = await readBinding(ctx.core, ctx.user.caller, id, { version: from, withContent: true });
    const b = await readBinding(ctx.core, ctx.user.caller, id, { version: to, withContent: true });
    const text = (r: typeof a) => contentOf(ctx.core, r);
    const summaryChanged = a.summary !== b.summary;
    const diffs = await lineDiffs([
      ...(summaryChanged ? [[a.summary, b.summary] as [string, string]] : []),
      [await text(a), await text(b)],
    ]);
    if (!diffs) return diffBusy(ctx);
    return show({ user: ctx.user, id, from, to, a, b, summary: summaryChanged ? diffs[0]! : undefined, content: diffs.at(-1)! });
  },
  view: diffPageView,
});

/** The binding pages' routes (each a definePage or defineAction). */
export const bindingRoutes: WebRoute[] = [
  { method: 'GET', path: new RegExp(`^/b/${ID}$`), page: bindingPage },
  { method: 'GET', path: new RegExp(`^/b/${ID}/diff$`), page: diffPage },
  {
    method: 'GET',
    path: /^\/trash$/,
    page: definePage({
      async load(ctx) {
        const rows = await deletedBindings(ctx.core, ctx.user.caller);
        return show({ user: ctx.user, rows, deleted: !!ctx.url.searchParams.get('deleted') });
      },
      view: trashView,
    }),
  },
  {
    method: 'POST',
    path: new RegExp(`^/b/${ID}/delete$`),
    page: defineAction(async (ctx, m) => {
      await deleteBinding(ctx.core, ctx.user.caller, m[1]!);
      return redirect('/trash?deleted=1');
    }),
  },
  {
    method: 'POST',
    path: new RegExp(`^/b/${ID}/restore$`),
    page: defineAction(async (ctx, m) => {
      await restoreBinding(ctx.core, ctx.user.caller, m[1]!);
      return redirect(`/b/${m[1]!}`);
    }),
  },
  {
    method: 'POST',
    path: new RegExp(`^/b/${ID}/comments$`),
    page: defineAction(async (ctx, m) => {
      const body = (ctx.form.get('body') ?? '').trim();
      if (!body) throw fail.invalid('body', 'must not be empty');
      if (body.length > 4000) throw fail.tooLarge('body', 'must be at most 4000 characters');
      await ctx.deps.tokens.load();
      await addComment(ctx.core, ctx.user.caller, { id: m[1]!, body, version: versionParam(ctx.form.get('version')) }, HUMAN);
      return redirect(`/b/${m[1]!}#comments`);
    }),
  },
  {
    method: 'POST',
    path: /^\/comments\/(cmt_[A-Za-z0-9_-]{1,64})\/delete$/,
    page: defineAction(async (ctx, m) => {
      const c = await deleteComment(ctx.core, ctx.user.caller, m[1]!);
      return redirect(`/b/${c.bindingId}#comments`);
    }),
  },
];
