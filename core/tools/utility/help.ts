import { z } from 'zod';
import { defineTool } from '../define.ts';
import { BinderyError } from '../../errors.ts';
import { readHelpTopic, readHelpTopics } from '../../services/help.ts';
import { line, type Piece } from '../../tokens/doc.ts';

const topicEntry = z.object({ topic: z.string(), title: z.string(), tokenCount: z.number() });

export const helpTool = defineTool({
  name: 'help',
  title: 'Help',
  category: 'utility',
  description:
    'How to use Bindery well, written for you mid-task: which tool when, tiers and budgets, the search → tier 1.5 → tier 2 workflow, what each error means. No topic: the list of topics with their token cost. Start with topic "start".',
  aliases: ['how to', 'documentation', 'manual', 'what can you do', 'error meaning'],
  input: z.strictObject({
    topic: z
      .string()
      .trim()
      .min(1, { message: 'must not be empty' })
      .max(80)
      .optional()
      .describe('a topic name from help without arguments'),
  }),
  output: z.object({
    topic: z
      .object({ topic: z.string(), title: z.string(), body: z.string(), tokenCount: z.number(), origin: z.enum(['seed', 'cli']) })
      .optional(),
    topics: z.array(topicEntry).optional(),
  }),
  bound: { kind: 'tokens', maxTokens: 2_000 },
  annotations: { readOnlyHint: true },
  async handler(args, ctx) {
    const all = await readHelpTopics(ctx);
    if (!args.topic) {
      // `start` first: it is the one to read before the others.
      const topics = [...all]
        .sort((x, y) => Number(y.topic === 'start') - Number(x.topic === 'start'))
        .map(({ topic, title, tokenCount }) => ({ topic, title, tokenCount }));
      const pieces: Piece[] = [line(`## Help topics (${topics.length}); call help {topic: "…"} for one`)];
      for (const t of topics) pieces.push(line(`- ${t.topic} · ${t.title} · ${t.tokenCount} tokens`));
      return { pieces, data: { topics } };
    }
    const topic = await readHelpTopic(ctx, args.topic.toLowerCase());
    if (!topic) {
      throw new BinderyError(
        'NOT_FOUND',
        `topic: there is no help topic "${args.topic}"; topics are ${all.map((t) => t.topic).join(', ')}`,
        'topic',
        'Call help with one of those topics.',
      );
    }
    return {
      pieces: [{ text: topic.body, tokens: topic.tokenCount }],
      data: { topic: { topic: topic.topic, title: topic.title, body: topic.body, tokenCount: topic.tokenCount, origin: topic.origin } },
      dataTokens: topic.tokenCount,
    };
  },
});
