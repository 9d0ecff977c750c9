import { RpcError } from '../protocol/rpc-error.ts';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from '../context.ts';
import { BinderyError } from '../errors.ts';
import { issueCursor, paginate, readCursor } from '../cursor.ts';
import { tierCost, type Tier } from '../budget/tier.ts';
import { line } from '../tokens/doc.ts';
import { freshCounts } from '../services/counts.ts';
import { ensureStoredCountsOnce } from '../services/prepare.ts';
import { readableByName } from '../services/binding-reads.ts';
import { listBindings } from '../services/find.ts';
import type { BindingVersionRow } from '../../db/store/bindings.ts';
import { pageScope, renderBindingAtTier } from '../tools/binding/render-paged.ts';
import { bindingMeta } from '../tools/views.ts';
import { cappedText } from '../tools/run.ts';
import { BINDING_URI_TEMPLATE, bindingUri, parseBindingUri, UriError, type BindingUri } from './uri.ts';
import { resourceNotFound, toMcpError } from './rpc-errors.ts';

/** Resources per resources/list page. */
export const RESOURCE_PAGE_SIZE = 50;
const LIST_SCOPE = 'resources';
const MIME = 'text/markdown';

/** Exact stored token costs of a binding's current version at each tier (what a read at that tier costs, unpaged). */
function tierTokens(row: BindingVersionRow): Record<Tier, number> {
  return { '0': tierCost(row, '0'), '1': tierCost(row, '1'), '1.5': tierCost(row, '1.5'), '2': tierCost(row, '2') };
}

/** One resources/list entry: name `@space/slug`, title, summary, and the exact token figures in `_meta.context`. */
function resourceEntry(row: BindingVersionRow, ctx: ToolContext): Resource {
  const meta = bindingMeta(row, ctx);
  return {
    uri: bindingUri(row.spaceSlug, row.bindingSlug),
    name: `@${row.spaceSlug}/${row.bindingSlug}`,
    title: row.name,
    description: row.summary,
    mimeType: MIME,
    annotations: { audience: ['assistant', 'user'], lastModified: new Date(row.updatedAt).toISOString() },
    _meta: { context: { binding: meta.binding, version: row.number, tierTokens: tierTokens(row) } },
  };
}

/**
 * The live binding (at the version asked for) a URI names, if the caller may read it by these
 * guessable names: public links do not count (as for `/@space/slug` pages). Missing, deleted,
 * unreadable and version-less all come back undefined, after the same queries.
 */
export async function bindingAtUri(
  ctx: ToolContext,
  parsed: Pick<BindingUri, 'space' | 'binding' | 'version' | 'tier'>,
): Promise<BindingVersionRow | undefined> {
  return readableByName(ctx, ctx.caller, parsed.space, parsed.binding, { version: parsed.version, withContent: parsed.tier === '2' });
}

/** A URI's parts, or InvalidParams naming the part and the rule. */
export function parseUriParam(uri: string): BindingUri {
  try {
    return parseBindingUri(uri);
  } catch (err) {
    if (err instanceof UriError) throw new RpcError(ErrorCode.InvalidParams, err.message);
    throw err;
  }
}

/** resources/read: the binding at the tier (default 2) with tier-2 caps and paging; `?page=N` picks a page. */
async function readResource(ctx: ToolContext, uri: string): Promise<ReadResourceResult> {
  const parsed = parseUriParam(uri);
  const row = await bindingAtUri(ctx, parsed);
  if (!row) throw resourceNotFound(uri);
  await freshCounts(ctx, [row]);
  const cursor = parsed.page > 1 ? await issueCursor(ctx.db, { scope: pageScope(row, parsed.tier), offset: parsed.page - 1 }) : undefined;
  let rendered;
  try {
    rendered = await renderBindingAtTier(row, parsed.tier, ctx, cursor);
  } catch (err) {
    if (err instanceof BinderyError && err.field === 'cursor')
      throw new RpcError(ErrorCode.InvalidParams, `page: ${parsed.page} is past the last page of this binding at tier ${parsed.tier}`);
    throw err;
  }
  const { pieces, view } = rendered;
  const page = view.page
    ? {
        index: view.page.index,
        count: view.page.count,
        nextUri: view.page.nextCursor
          ? bindingUri(row.spaceSlug, row.bindingSlug, { version: parsed.version, tier: parsed.tier, page: parsed.page + 1 })
          : null,
      }
    : undefined;
  // A paged read ends with where the next page is: for a resource that is the next URI, not a tool cursor.
  if (page)
    pieces[pieces.length - 1] = line(
      page.nextUri ? `Page ${page.index} of ${page.count}. Next page: ${page.nextUri}` : `Page ${page.index} of ${page.count} (last).`,
    );
  const { text, tokens } = await cappedText(pieces, ctx);
  const context = { response: { tokens }, ...bindingMeta(row, ctx), version: row.number, tier: parsed.tier, ...(page ? { page } : {}) };
  return { contents: [{ uri, mimeType: MIME, text, _meta: { context } }], _meta: { context } };
}

/** Registers resources/list (paged), resources/templates/list and resources/read. */
export function registerResources(server: Server, ctx: ToolContext): void {
  const guarded = <T>(what: string, run: () => Promise<T>) =>
    (async () => {
      try {
        await ensureStoredCountsOnce(ctx);
        return await run();
      } catch (err) {
        throw toMcpError(err, ctx.log, what);
      }
    })();

  server.setRequestHandler(ListResourcesRequestSchema, (request) =>
    guarded('resources/list', async () => {
      const offset = await readCursor(ctx.db, request.params?.cursor, LIST_SCOPE);
      // The caller's default scope, as list_bindings without a space: own spaces and what was shared
      // with the caller by name and accepted. Public spaces are readable by URI but not listed uninvited.
      const found = await listBindings(ctx, ctx.caller, { offset, limit: RESOURCE_PAGE_SIZE });
      await freshCounts(ctx, found.rows);
      const pagination = await paginate(ctx.db, LIST_SCOPE, offset, found.rows.length, found.total);
      return {
        resources: found.rows.map((row) => resourceEntry(row, ctx)),
        ...(pagination.nextCursor ? { nextCursor: pagination.nextCursor } : {}),
        _meta: { context: { pagination } },
      };
    }),
  );

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: BINDING_URI_TEMPLATE,
        name: 'binding',
        title: 'Binding at a version and tier',
        description:
          'A binding by space and binding slug. Optional, in any order: version (default current), tier "1", "1.5" or "2" (default "2"), page (a read over the response cap comes in pages; _meta.context.page.nextUri names the next).',
        mimeType: MIME,
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, (request) => guarded('resources/read', () => readResource(ctx, request.params.uri)));
}
