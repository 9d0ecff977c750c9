import { z } from 'zod';
import { clip } from '../clip.ts';
import { fail } from '../errors.ts';
import type { RowCheck } from '../../db/dump/validate.ts';

/**
 * The limits of a binding's fields, and the ONE validation every write path goes through: the tools, REST and web build their input schemas from the rules below, and the binding
 * services (so import of either format too) and `bindery restore` check every version they write with
 * `checkVersionFields`, so no path can store what another would refuse.
 */
export const LIMITS = { name: 200, summary: 600, keyPoints: 8, keyPoint: 160, model: 120 } as const;

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

export const name = () =>
  text()
    .trim()
    .min(1, { message: 'must not be empty' })
    .max(LIMITS.name, { message: `must be at most ${LIMITS.name} characters` });
export const summary = () =>
  text()
    .trim()
    .min(1, { message: 'must not be empty' })
    .max(LIMITS.summary, { message: `must be at most ${LIMITS.summary} characters` });
export const keyPoints = () =>
  z
    .array(
      text()
        .trim()
        .min(1, { message: 'must not be empty' })
        .max(LIMITS.keyPoint, { message: `each must be at most ${LIMITS.keyPoint} characters` }),
    )
    .max(LIMITS.keyPoints, { message: `must have at most ${LIMITS.keyPoints} items` });
export const content = () => text().min(1, { message: 'must not be empty' });
export const model = () => text().max(LIMITS.model);

const versionFields = z.object({ name: name(), summary: summary(), keyPoints: keyPoints(), content: content(), model: model().nullable() });

export interface VersionFields {
  name: string;
  summary: string;
  keyPoints: string[];
  content: string;
  model: string | null;
}

/** The first limit a version's fields break (the field, dotted, and the rule), or undefined. */
export function versionFieldsIssue(v: VersionFields): { field: string; rule: string } | undefined {
  const r = versionFields.safeParse(v);
  if (r.success) return undefined;
  const issue = r.error.issues[0]!;
  return { field: issue.path.length ? issue.path.join('.') : '(fields)', rule: issue.message };
}

/** Throws INVALID_INPUT naming the field and the rule when a version's fields break a limit. */
export function checkVersionFields(v: VersionFields): void {
  const issue = versionFieldsIssue(v);
  if (issue) throw fail.invalid(issue.field, issue.rule);
}

/**
 * Fields read from a file (an import) brought within the limits the way a careful importer does:
 * an over-long name, summary or key point is cut at a word (core/clip.ts), key points past the
 * eighth and empty ones are left out; each change is named in `warnings`, so the import says what it
 * did. What cannot be fixed this way (an empty name, a lone surrogate) is left to checkVersionFields
 * to refuse.
 */
export function fitToLimits<T extends { name: string; summary: string; keyPoints: string[]; model?: string | null }>(
  fields: T,
): { fields: T; warnings: string[] } {
  const warnings: string[] = [];
  const cut = (field: string, value: string, max: number) => {
    if (value.length <= max) return value;
    warnings.push(`${field} was ${value.length.toLocaleString('en-US')} characters; cut to ${max} (the limit)`);
    return clip(value, max, { word: true });
  };
  let points = fields.keyPoints.filter((k) => k.trim() !== '');
  if (points.length < fields.keyPoints.length)
    warnings.push(`keyPoints: ${fields.keyPoints.length - points.length} empty key point(s) left out`);
  if (points.length > LIMITS.keyPoints) {
    warnings.push(`keyPoints: ${points.length.toLocaleString('en-US')} given; kept the first ${LIMITS.keyPoints} (the limit)`);
    points = points.slice(0, LIMITS.keyPoints);
  }
  return {
    fields: {
      ...fields,
      ...(typeof fields.model === 'string' ? { model: cut('model', fields.model, LIMITS.model) } : {}),
      name: cut('name', fields.name, LIMITS.name),
      summary: cut('summary', fields.summary, LIMITS.summary),
      keyPoints: points.map((k, i) => cut(`keyPoints.${i}`, k, LIMITS.keyPoint)),
    },
    warnings,
  };
}

/**
 * The field limits for `bindery restore` (db/dump/restore.ts `checkRow`): a dumped version is
 * checked exactly as a written one, so a dump cannot bring in what no write path would store.
 */
export const restoredRowIssue: RowCheck = (table, row) => {
  if (table !== 'versions') return undefined;
  const keyPoints: unknown = typeof row.key_points === 'string' ? JSON.parse(row.key_points) : row.key_points;
  const issue = versionFieldsIssue({
    name: row.name,
    summary: row.summary,
    keyPoints,
    content: row.content,
    model: row.model ?? null,
  } as VersionFields);
  return (
    issue && {
      field:
        issue.field === 'keyPoints' || issue.field.startsWith('keyPoints.') ? issue.field.replace('keyPoints', 'key_points') : issue.field,
      rule: issue.rule,
    }
  );
};
