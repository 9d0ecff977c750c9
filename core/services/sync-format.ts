import type { SyncBinding } from '../../db/store/sync.ts';
import { parseExport, renderExport } from './export-format.ts';
import { decodeUtf8, parseMarkdownDoc } from './import.ts';

// How `bindery sync` reads a file into binding fields and writes a binding back as a file. Two forms:
// `plain` — the binding's content is the whole file, and name, summary and key points are derived from
// it as `bindery import` derives them; `export` — export front matter (id, name, summary, key points)
// then the content, as `bindery export` writes it. A file keeps the form it was found in; a binding
// born in Bindery is written plain when its fields are exactly what its content would give (nothing
// is lost by leaving them out), else in the export form.

export type SyncFormat = 'plain' | 'export';

export interface SyncFields {
  name: string;
  summary: string;
  keyPoints: string[];
  content: string;
}

/** A file read for sync: its form, its fields, and the binding id its front matter names (export form). */
export interface SyncDoc {
  format: SyncFormat;
  fields: SyncFields;
  id?: string;
}

/** Conflict copies sit beside their file and are never synced themselves. */
export const CONFLICT_NAME = /\.bindery-conflict-v\d+\.md$/i;

/** The name of the copy of Bindery's version `version` of the file at `path` (same folder). */
export function conflictPath(path: string, version: number): string {
  return `${path.replace(/\.md$/i, '')}.bindery-conflict-v${version}.md`;
}

/** Reads a file's bytes as a sync document, or says why it cannot be synced. */
export function readSyncDoc(bytes: Uint8Array, path: string): SyncDoc | { skipped: string } {
  const text = decodeUtf8(bytes);
  if (text === null) return { skipped: 'not valid UTF-8' };
  const exported = parseExport(text);
  if (exported && 'error' in exported) return { skipped: exported.error };
  if (exported) {
    const { name, summary, keyPoints, content } = exported;
    return { format: 'export', fields: { name, summary, keyPoints, content }, id: exported.id || undefined };
  }
  if (text.trim() === '') return { skipped: 'empty (an empty file is synced once it holds text)' };
  const { name, summary, keyPoints, content } = parseMarkdownDoc(text, path);
  return { format: 'plain', fields: { name, summary, keyPoints, content } };
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** True when a file already says what the binding holds (in the file's form: plain compares content). */
export function inStep(doc: SyncDoc, b: SyncFields): boolean {
  if (doc.fields.content !== b.content) return false;
  return (
    doc.format === 'plain' ||
    (doc.fields.name === b.name && doc.fields.summary === b.summary && sameList(doc.fields.keyPoints, b.keyPoints))
  );
}

/** The form a binding's new file takes: plain when its content alone gives back every field. */
export function formatFor(b: SyncBinding, path: string): SyncFormat {
  const doc = readSyncDoc(new TextEncoder().encode(b.content), path);
  if ('skipped' in doc || doc.format !== 'plain') return 'export';
  const f = doc.fields;
  return f.name === b.name && f.summary === b.summary && sameList(f.keyPoints, b.keyPoints) ? 'plain' : 'export';
}

/** The bytes of a binding's file in the given form. */
export function renderSyncFile(b: SyncBinding, format: SyncFormat): Uint8Array {
  const text =
    format === 'plain'
      ? b.content
      : renderExport({
          id: b.id,
          name: b.name,
          summary: b.summary,
          keyPoints: b.keyPoints,
          version: b.number,
          source: b.source,
          model: b.model,
          updatedAt: new Date(b.updatedAt).toISOString(),
          content: b.content,
        });
  return new TextEncoder().encode(text);
}

/** SHA-256 of bytes as lowercase hex (Web Crypto: every runtime). */
export async function bytesHash(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * A relative path sync may write to: `/`-separated segments, none empty, `.`, `..` or hidden, no NUL
 * or backslash, ending in `.md`, not a conflict copy. Paths derived from the database (a binding's
 * source path) pass here before any write.
 */
export function safeRelativePath(path: string): boolean {
  if (!path || path.length > 1024 || path.startsWith('/') || /[\0\\]/.test(path)) return false;
  if (!/\.md$/i.test(path) || CONFLICT_NAME.test(path)) return false;
  return path.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..' && !seg.startsWith('.'));
}
