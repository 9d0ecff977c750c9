import { z } from 'zod';
import { defineTool } from '../define.ts';
import { bindingId, content, keyPoints, modelSchema, name, summary } from '../schema.ts';
import { updateBinding } from '../../services/bindings.ts';
import { fail } from '../../errors.ts';
import { bindingMeta, bindingView, writeAnswer } from '../views.ts';

export const updateBindingTool = defineTool({
  name: 'update_binding',
  title: 'Update binding',
  category: 'binding',
  description:
    'Change a binding you own: pass only the fields that change; a new version is made and old ones stay readable. Pass expectedVersion (the version you read) so a concurrent change is reported as CONFLICT instead of being overwritten. Update summary/keyPoints when content changes.',
  aliases: ['edit', 'edit note', 'revise', 'amend note', 'save changes'],
  input: z.strictObject({
    id: bindingId(),
    content: content().optional(),
    name: name().optional(),
    summary: summary().optional(),
    keyPoints: keyPoints().optional(),
    expectedVersion: z.number().int().min(1, { message: 'must be 1 or more' }).optional(),
    model: modelSchema().optional(),
  }),
  output: z.object({ binding: bindingView, changed: z.boolean() }),
  bound: { kind: 'tokens', maxTokens: 450 },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async handler(args, ctx) {
    const { id, expectedVersion, model, ...fields } = args;
    if (Object.values(fields).every((v) => v === undefined)) {
      throw fail.invalid('(arguments)', 'give at least one of content, name, summary, keyPoints to change');
    }
    const { row, changed } = await updateBinding(ctx, ctx.caller, id, { ...fields, expectedVersion }, ctx.provenance(model));
    const note = changed ? `Updated ${id} to v${row.number}.` : `No change: ${id} already has these values (still v${row.number}).`;
    const { pieces, view } = writeAnswer(row, note, ctx);
    return { pieces, data: { binding: view, changed }, meta: bindingMeta(row, ctx) };
  },
});
