import { z } from 'zod';
import type { Tier } from '../budget/tier.ts';
import { content, keyPoints, model, name, summary, text } from '../services/binding-fields.ts';
import { idPattern, idRefPattern, SHORT_ID_CHARS } from '../ids.ts';

// The field rules live with the one validation every write path shares (core/services/binding-fields.ts).
export { content, keyPoints, name, summary, text };

/**
 * A tier as the string "1", "1.5", "2" or the same number (generic clients and the MCP Inspector send
 * numbers); handlers always see the string. The listed schema is one `enum` of both spellings.
 */
export const tierField = z
  .literal(['0', '1', '1.5', '2', 0, 1, 1.5, 2], {
    message: 'must be "0" (one line), "1" (summary), "1.5" (+ preview) or "2" (full content)',
  })
  .transform((t) => String(t) as Tier);
/** A tier with what each costs said once (tools whose own description does not say it). */
export const tierSchema = tierField.describe('"0" one line, "1" summary, "1.5" + preview and outline, "2" full');

export const idOf = (prefix: string, what: string) =>
  z.string().regex(new RegExp(`^${idPattern(prefix)}$`), { message: `must be a ${what} id like ${prefix}_0123456789abcdef` });

export const bindingId = () => idOf('bnd', 'binding');
/** A binding id, or its first characters as a search's passage line shows them (resolved by services/binding-reads.ts resolveBindingRef). */
export const bindingRef = () =>
  z.string().regex(new RegExp(`^${idRefPattern('bnd')}$`), {
    message: `must be a binding id like bnd_0123456789abcdef, or its first ${SHORT_ID_CHARS} characters after bnd_ as search shows them`,
  });
export const setId = () => idOf('set', 'set');

export const spaceRef = () => z.string().min(1).max(80).describe('space id (spc_…), slug, or @slug; default: your personal space');

export const limitSchema = (max: number, def: number) =>
  z
    .number()
    .int({ message: 'must be a whole number' })
    .min(1, { message: `must be from 1 to ${max}` })
    .max(max, { message: `must be from 1 to ${max}` })
    .default(def);

export const sectionIdField = () =>
  z.string().min(1, { message: 'must be a section id' }).max(80, { message: 'must be at most 80 characters' });
export const sectionIdSchema = () => sectionIdField().describe('section id from the outline; tier is then ignored');

export const querySchema = () =>
  text()
    .trim()
    .min(1, { message: 'must not be empty' })
    .max(500, { message: 'must be at most 500 characters' })
    .describe('show items by their sections matching this, best first');

export const cursorSchema = () => z.string().max(2000);

export const maxTokensSchema = () =>
  z.number().int({ message: 'must be a whole number of tokens' }).positive({ message: 'must be a positive number of tokens' });

export const modelSchema = () => model().describe('your model name, recorded as provenance');
