import { z } from 'zod';
import { defineTool } from '../define.ts';
import { name } from '../schema.ts';
import { createSpace } from '../../services/spaces.ts';
import { line } from '../../tokens/doc.ts';

export const createSpaceTool = defineTool({
  name: 'create_space',
  title: 'Create space',
  category: 'space',
  description:
    'Create a space you own: a namespace for bindings and sets, addressed as @slug. visibility "private" (default: only you and those you share with) or "public" (anyone can read).',
  aliases: ['new namespace', 'workspace', 'team space'],
  input: z.strictObject({
    slug: z.string().min(1, { message: 'must not be empty' }).max(41).describe('lowercase letters, digits and "-", 2–40 characters'),
    name: name(),
    visibility: z.enum(['private', 'public'], { message: 'must be "private" or "public"' }).default('private'),
  }),
  output: z.object({ space: z.object({ id: z.string(), slug: z.string(), name: z.string(), visibility: z.enum(['private', 'public']) }) }),
  bound: { kind: 'tokens', maxTokens: 80 },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async handler(args, ctx) {
    const space = await createSpace(ctx, ctx.caller, args);
    const view = { id: space.id, slug: `@${space.slug}`, name: space.name, visibility: space.visibility };
    return {
      pieces: [
        line(`Created ${view.visibility} space ${view.slug} (${view.id}). Pass space: "${view.slug}" to create_binding or create_set.`),
      ],
      data: { space: view },
    };
  },
});
