import { z } from 'zod';
import { defineTool } from '../define.ts';
import { bindingId, cursorSchema, limitSchema } from '../schema.ts';
import { listVersions, readBinding } from '../../services/binding-reads.ts';
import { paginate, readCursor } from '../../cursor.ts';
import { line, type Piece } from '../../tokens/doc.ts';
import { paginationView } from '../views.ts';
import { itemsUnderCap } from '../cap-lines.ts';

const versionItem = z.object({
  version: z.number(),
  name: z.string(),
  summary: z.string(),
  contentTokenCount: z.number(),
  source: z.enum(['human', 'llm']),
  model: z.string().nullable(),
  createdAt: z.string(),
});

export const listVersionsTool = defineTool({
  name: 'list_versions',
  title: 'List versions',
  category: 'version',
  description:
    'The version history of a binding, newest first: number, name, summary, size and who wrote it (human or llm, and the model). Read one with get_version.',
  aliases: ['history', 'changes', 'revisions', 'audit'],
  input: z.strictObject({ id: bindingId(), limit: limitSchema(100, 20), cursor: cursorSchema().optional() }),
  output: z.object({ id: z.string(), versions: z.array(versionItem), pagination: paginationView }),
  bound: { kind: 'items', maxItems: 100, itemTokens: 200 },
  annotations: { readOnlyHint: true },
  async handler(args, ctx) {
    const binding = await readBinding(ctx, ctx.caller, args.id);
    const scope = `versions:${args.id}:${args.limit}`;
    const offset = await readCursor(ctx.db, args.cursor, scope);
    const { rows, total } = await listVersions(ctx, binding, offset, args.limit);
    const all = rows.map((v) => ({
      version: v.number,
      name: v.name,
      summary: v.summary,
      contentTokenCount: v.contentTokenCount,
      source: v.source,
      model: v.model,
      createdAt: new Date(v.createdAt).toISOString(),
    }));
    const pieces: Piece[] = [line(`## Versions of ${args.id} ("${binding.name}"): ${total}, current v${binding.currentVersion}`)];
    const lines = all.map((v) =>
      line(
        `- v${v.version} · ${v.createdAt.slice(0, 16).replace('T', ' ')} · ${v.source}${v.model ? `/${v.model}` : ''} · ${v.contentTokenCount} tokens · ${v.name}`,
      ),
    );
    const kept = itemsUnderCap(pieces, lines, ctx);
    const versions = all.slice(0, kept.length);
    pieces.push(...kept);
    const pagination = await paginate(ctx.db, scope, offset, versions.length, total);
    if (pagination.hasMore) pieces.push(line(`More: call again with cursor "${pagination.nextCursor}".`));
    const latest = rows[0];
    return {
      pieces,
      data: { id: args.id, versions, pagination },
      meta: { pagination, ...(latest ? { agentMeta: { source: latest.source, model: latest.model } } : {}) },
    };
  },
});
