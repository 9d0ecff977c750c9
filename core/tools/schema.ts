import { z } from 'zod';
import type { Tier } from '../budget/tier.ts';
import { idPattern } from '../ids.ts';

/**
 * A string that is stored exactly as sent: lone UTF-16 surrogates (stored as U+FFFD) and NUL
 * characters (libSQL cuts text at the first one) are refused, so a stored token count is always the
 * count of what is read back.
 */
export const text = () =>
  z
    .string()
    .refine((s) => s.isWellFormed(), { message: 'must be valid Unicode text (it contains a lone UTF-16 surrogate)' })
    .refine((s) => !s.includes('\u0000'), { message: 'must not contain NUL characters (U+0000)' });

/**
 * A tier as the string "1", "1.5", "2" or the same number (generic clients and the MCP Inspector send
 * numbers); handlers always see the string. The listed schema is one `enum` of both spellings.
 */
export const tierSchema = z
  .literal(['0', '1', '1.5', '2', 0, 1, 1.5, 2], { message: 'must be "0" (one line), "1" (summary), "1.5" (+ preview) or "2" (full content)' })
  .transform((t) => String(t) as Tier)
  .describe('"0" one line (~30 tokens), "1" summary (~300), "1.5" + 500-char preview, "2" full content');

export const idOf = (prefix: string, what: string) =>
  z
    .string()
    .regex(new RegExp(`^${idPattern(prefix)}$`), { message: `must be a ${what} id like ${prefix}_0123456789abcdef` });

export const bindingId = () => idOf('bnd', 'binding');
export const setId = () => idOf('set', 'set');

export const spaceRef = () =>
  z
    .string()
    .min(1)
    .max(80)
    .describe('space id (spc_…), slug, or @slug; default: your personal space');

export const limitSchema = (max: number, def: number) =>
  z.number().int({ message: 'must be a whole number' }).min(1, { message: `must be from 1 to ${max}` }).max(max, { message: `must be from 1 to ${max}` }).default(def);

export const sectionIdSchema = () => z.string().min(1, { message: 'must be a section id' }).max(80, { message: 'must be at most 80 characters' }).describe('section id from the outline; tier is then ignored');

export const querySchema = () =>
  text().trim().min(1, { message: 'must not be empty' }).max(500, { message: 'must be at most 500 characters' }).describe('show items by their sections matching this, best first');

export const cursorSchema = () => z.string().max(2000).describe('nextCursor from the previous page');

export const maxTokensSchema = () =>
  z.number().int({ message: 'must be a whole number of tokens' }).positive({ message: 'must be a positive number of tokens' }).describe('hard cap on the response text, in tokens');

export const modelSchema = () => text().max(120).describe('your model name, recorded as provenance');

export const name = () => text().trim().min(1, { message: 'must not be empty' }).max(200, { message: 'must be at most 200 characters' });
export const summary = () =>
  text().trim().min(1, { message: 'must not be empty' }).max(600, { message: 'must be at most 600 characters' });
export const keyPoints = () =>
  z
    .array(text().trim().min(1, { message: 'must not be empty' }).max(160, { message: 'each must be at most 160 characters' }))
    .max(8, { message: 'must have at most 8 items' });
export const content = () => text().min(1, { message: 'must not be empty' });
