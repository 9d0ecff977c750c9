import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export type ErrorCode = 'NOT_FOUND' | 'CONFLICT' | 'INVALID_INPUT' | 'FORBIDDEN' | 'TOO_LARGE' | 'INTERNAL';

/** A failure the model can act on: `code` says what kind, `message` names the field and the rule. */
export class BinderyError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    /** What to do next, when the code's generic advice would mislead. */
    readonly next?: string,
  ) {
    super(message);
    this.name = 'BinderyError';
  }
}

/** The HTTP status of each error code, for every HTTP face (REST, the web app, public pages). */
export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  NOT_FOUND: 404,
  CONFLICT: 409,
  INVALID_INPUT: 400,
  FORBIDDEN: 403,
  TOO_LARGE: 413,
  INTERNAL: 500,
};

/** Shorthand constructors so handlers read like the rule they enforce. */
export const fail = {
  notFound: (what: string, id: string, field = 'id') =>
    new BinderyError('NOT_FOUND', `${field}: ${what} ${id} was not found (it does not exist or you may not read it).`, field),
  invalid: (field: string, rule: string) => new BinderyError('INVALID_INPUT', `${field}: ${rule}`, field),
  conflict: (field: string, rule: string) => new BinderyError('CONFLICT', `${field}: ${rule}`, field),
  forbidden: (rule: string) => new BinderyError('FORBIDDEN', rule),
  tooLarge: (field: string, rule: string) => new BinderyError('TOO_LARGE', `${field}: ${rule}`, field),
};

const NEXT_STEP: Record<ErrorCode, string> = {
  NOT_FOUND: 'Check the id (search_bindings or list_bindings find ids you can read).',
  CONFLICT: 'Re-read the current state (get_binding) and retry with its version.',
  INVALID_INPUT: 'Fix the argument and call again.',
  FORBIDDEN: 'You may read this but not change it; ask its owner for a share with more access.',
  TOO_LARGE: 'Send less: split the content or lower the limit.',
  INTERNAL: 'Retry once; if it persists, report it.',
};

/** The one place errors become tool results. Internals and stack traces never reach the model. */
export function toErrorResult(err: unknown, log?: (msg: string, extra?: unknown) => void): CallToolResult & { code: ErrorCode } {
  const known = err instanceof BinderyError;
  if (!known) log?.('internal error in tool handler', err);
  const code: ErrorCode = known ? err.code : 'INTERNAL';
  const message = known ? err.message : 'An internal error occurred; nothing was written.';
  const text = `Error ${code}: ${message}\n${(known && err.next) || NEXT_STEP[code]}\n`;
  return {
    isError: true,
    code,
    content: [{ type: 'text', text }],
    _meta: { context: { error: { code, field: known ? err.field : undefined } } },
  };
}
