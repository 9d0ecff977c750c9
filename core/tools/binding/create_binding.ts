import { z } from 'zod';
import { defineTool } from '../define.ts';
import { content, keyPoints, modelSchema, name, spaceRef, summary } from '../schema.ts';
import { createBinding } from '../../services/bindings.ts';
import { bindingMeta, bindingView, writeAnswer } from '../views.ts';

export const createBindingTool = defineTool({
  name: 'create_binding',
  title: 'Create binding',
  category: 'binding',
  description:
    'Save a Markdown document as a new binding (version 1). You write the summary (≤600 chars) and up to 8 key points: they are what later searches show at tier 1, so make them specific. Returns the binding at tier 1 with its exact contentTokenCount and URLs.',
  aliases: ['remember this', 'save note', 'store document', 'write knowledge', 'new doc', 'bug note'],
  input: z.strictObject({
    space: spaceRef().optional(),
    name: name(),
    content: content(),
    summary: summary(),
    keyPoints: keyPoints().optional(),
    model: modelSchema().optional(),
  }),
  output: z.object({ binding: bindingView }),
  bound: { kind: 'tokens', maxTokens: 450 },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async handler(args, ctx) {
    const row = await createBinding(ctx, ctx.caller, args, ctx.provenance(args.model));
    const { pieces, view } = writeAnswer(row, `Created ${row.bindingId} (v1).`, ctx);
    return {
      pieces,
      data: { binding: view },
      meta: bindingMeta(row, ctx),
    };
  },
});
