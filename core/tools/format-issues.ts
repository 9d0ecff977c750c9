import type { z } from 'zod';

/** Turns zod issues into one line per field: "`summary`: must be at most 600 characters". */
export function formatIssues(error: z.ZodError, prefix = ''): { field: string; message: string } {
  const parts = error.issues.slice(0, 5).map((issue) => {
    const field = prefix + (issue.path.length ? issue.path.map((p) => clip(String(p))).join('.') : '(arguments)');
    return { field, message: `${field}: ${describe(issue)}` };
  });
  return { field: parts[0]?.field ?? '(arguments)', message: parts.map((p) => p.message).join('; ') };
}

/** Caller text quoted in an error, cut to a length that cannot crowd the answer. */
export function clip(s: string, max = 60): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  return `${cut.isWellFormed() ? cut : cut.slice(0, -1)}…`;
}

function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? `is required (${issue.expected})` : `must be ${issue.expected}`;
    case 'unrecognized_keys': {
      // The keys are the caller's own text: a few, shortened, so the error stays a short answer.
      const shown = issue.keys.slice(0, 5).map((k) => `"${clip(k)}"`).join(', ');
      const more = issue.keys.length > 5 ? ` and ${issue.keys.length - 5} more` : '';
      return `unknown argument${issue.keys.length > 1 ? 's' : ''} ${shown}${more}`;
    }
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return issue.message;
  }
}
