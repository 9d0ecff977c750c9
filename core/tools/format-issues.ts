import type { z } from 'zod';
import { clip as clipText } from '../clip.ts';

/**
 * Turns zod issues into one line per field: "`summary`: must be at most 600 characters". `input` is
 * what was parsed: zod 4 leaves it out of issues, and it tells a missing field ("is required") from
 * one of the wrong type ("must be a string").
 */
export function formatIssues(error: z.ZodError, prefix = '', input?: unknown): { field: string; message: string } {
  const parts = error.issues.slice(0, 5).map((issue) => {
    const field = prefix + (issue.path.length ? issue.path.map((p) => clip(String(p))).join('.') : '(arguments)');
    return { field, message: `${field}: ${describe(issue, input)}` };
  });
  return { field: parts[0]?.field ?? '(arguments)', message: parts.map((p) => p.message).join('; ') };
}

/** Caller text quoted in an error, cut to a length that cannot crowd the answer. */
export function clip(s: string, max = 60): string {
  return clipText(s, max);
}

/** The value at `path` in `input`, and whether it is there at all. */
function valueAt(input: unknown, path: readonly PropertyKey[]): { present: boolean; value?: unknown } {
  let node = input;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return { present: false };
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return { present: node !== undefined, value: node };
}

/** "a string", "an array": the type zod expected, as a rule reads. */
function article(expected: string): string {
  if (expected === 'int') return 'a whole number';
  return `${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}`;
}

/** The JSON type of a value, for "got …". */
function jsonType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v;
}

function describe(issue: z.core.$ZodIssue, input: unknown): string {
  switch (issue.code) {
    case 'invalid_type': {
      // The issue carries the input only when zod is asked to (reportInput); the path lookup does not need it.
      const at = 'input' in issue ? { present: issue.input !== undefined, value: issue.input } : valueAt(input, issue.path);
      return at.present ? `must be ${article(issue.expected)} (got ${jsonType(at.value)})` : `is required (${issue.expected})`;
    }
    case 'unrecognized_keys': {
      // The keys are the caller's own text: a few, shortened, so the error stays a short answer.
      const shown = issue.keys
        .slice(0, 5)
        .map((k) => `"${clip(k)}"`)
        .join(', ');
      const more = issue.keys.length > 5 ? ` and ${issue.keys.length - 5} more` : '';
      return `unknown argument${issue.keys.length > 1 ? 's' : ''} ${shown}${more}`;
    }
    case 'invalid_value':
      // A rule the schema words itself (e.g. the tier's) reads better than the list of values.
      if (!issue.message.startsWith('Invalid')) return issue.message;
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return issue.message;
  }
}
