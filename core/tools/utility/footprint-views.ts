import { z } from 'zod';

/** `{ tokens, percentTotal }`: a definition cost and its share of all tools listed at once. */
export const contextView = z.object({ tokens: z.number(), percentTotal: z.number().nullable() });

export const riskView = z.enum(['low', 'medium', 'high', 'critical']);

/** "1,234": token figures read better grouped. */
export const n = (x: number): string => x.toLocaleString('en-US');
