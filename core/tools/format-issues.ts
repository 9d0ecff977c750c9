import type { z } from 'zod';

/** Turns zod issues into one line per field: "`summary`: must be at most 600 characters". */
export function formatIssues(error: z.ZodError, prefix = ''): { field: string; message: string } {
  const parts = error.issues.slice(0, 5).map((issue) => {
    const field = prefix + (issue.path.length ? issue.path.map(String).join('.') : '(arguments)');
    return { field, message: `${field}: ${describe(issue)}` };
  });
  return { field: parts[0]?.field ?? '(arguments)', message: parts.map((p) => p.message).join('; ') };
}

function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? `is required (${issue.expected})` : `must be ${issue.expected}`;
    case 'unrecognized_keys':
      return `unknown argument${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return issue.message;
  }
}
