import { z } from 'zod';

/** `{ modelTokens, tokens, percentTotal }`: model-visible and whole-entry definition cost, and the entry's share of all tools. */
export const contextView = z.object({ modelTokens: z.number(), tokens: z.number(), percentTotal: z.number().nullable() });

export const riskView = z.enum(['low', 'medium', 'high', 'critical']);

/** "1,234": token figures read better grouped. */
export const n = (x: number): string => x.toLocaleString('en-US');
