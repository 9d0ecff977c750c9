import type { z } from 'zod';
import { BinderyError } from '../errors.ts';
import { formatIssues } from '../tools/format-issues.ts';

/** Validates REST input with the tools' zod schemas; failures are INVALID_INPUT naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const { field, message } = formatIssues(parsed.error as z.ZodError, '', value);
    throw new BinderyError('INVALID_INPUT', message, field);
  }
  return parsed.data;
}
