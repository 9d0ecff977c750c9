import MarkdownIt from 'markdown-it';
import { parse as parseYaml } from 'yaml';
import type { Caller } from '../context.ts';
import { clip } from '../clip.ts';
import { BinderyError } from '../errors.ts';
import { sha256Hex } from '../ids.ts';
import { findImportedBinding } from '../../db/store/imports.ts';
import { liveBindingInSpace } from '../../db/store/exports.ts';
import { parseExport, type ExportedBinding } from './export-format.ts';
import { fitToLimits, LIMITS } from './binding-fields.ts';
import { describeDocument } from './card.ts';
import { plainText } from './card-prose.ts';
import { createBinding, resolveWritableSpace, updateBinding, type BindingInput, type CoreDeps } from './bindings.ts';

// The limits live with the one validation (binding-fields.ts); these names are kept for their readers.
export const MAX_NAME = LIMITS.name;
export const MAX_SUMMARY = LIMITS.summary;
export const MAX_KEY_POINTS = LIMITS.keyPoints;
export const MAX_KEY_POINT = LIMITS.keyPoint;

/** A Markdown file turned into binding fields; `content` is the whole file, front matter included. */
export interface ImportedDoc extends Required<BindingInput> {
  /** Notes on what could not be used as written (bad front matter, over-long fields). */
  warnings: string[];
}

/** Decodes a file as strict UTF-8 (a leading BOM is dropped); null when the bytes are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Cuts text to at most `max` characters at a word boundary, marking the cut with "…". */
export function cutAtWord(text: string, max: number): string {
  return clip(text, max, { word: true });
}

interface Block {
  kind: 'heading' | 'text';
  level: number;
  /** Inline Markdown as written (plainText reduces it). */
  text: string;
}

/**
 * markdown-it's block pass only: the structure (headings, paragraphs, lists, code, tables, HTML) is
 * what the import needs, and the inline pass (the slow one on hostile input) is left out. Raw HTML is
 * parsed as blocks so an HTML heading line can be recognised and other HTML skipped.
 */
const blockParser = new MarkdownIt({ html: true });
blockParser.core.ruler.enableOnly(['normalize', 'block']);

const HTML_HEADING = /^<h([1-6])[^>]*>(.*?)<\/h\1>$/i;

/**
 * Headings and text blocks of Markdown, in order, from markdown-it's tokens: top-level ATX, setext and
 * HTML heading lines; paragraphs (quoted ones included), HTML text and a list (as its source lines)
 * as text blocks. Fenced and indented code, tables, rules and link definitions are skipped.
 */
function blocks(body: string): Block[] {
  const tokens = blockParser.parse(body, {});
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === 'heading_open' && t.level === 0) {
      out.push({ kind: 'heading', level: Number(t.tag.slice(1)), text: tokens[i + 1]!.content });
    } else if (t.type === 'html_block') {
      htmlBlocks(t.content, t.level === 0, out);
    } else if (t.type === 'paragraph_open') {
      out.push({ kind: 'text', level: 0, text: tokens[i + 1]!.content });
    } else if ((t.type === 'bullet_list_open' || t.type === 'ordered_list_open') && t.map) {
      out.push({ kind: 'text', level: 0, text: lines.slice(t.map[0], t.map[1]).join('\n').trim() });
      const close = t.type.replace('_open', '_close');
      while (i + 1 < tokens.length && !(tokens[i + 1]!.type === close && tokens[i + 1]!.level === t.level)) i++;
    }
  }
  return out;
}

/**
 * An HTML block line by line: a line that is one `<hN>…</hN>` element is a heading (at the top level),
 * other lines make text blocks between blank lines (plainText keeps their words: READMEs often say
 * what they are in a centred `<p>`).
 */
function htmlBlocks(html: string, topLevel: boolean, out: Block[]): void {
  let para: string[] = [];
  const flush = () => {
    if (para.length) out.push({ kind: 'text', level: 0, text: para.join('\n') });
    para = [];
  };
  for (const line of html.split('\n')) {
    const m = topLevel ? HTML_HEADING.exec(line.trim()) : null;
    if (m) {
      flush();
      out.push({ kind: 'heading', level: Number(m[1]), text: m[2]! });
    } else if (line.trim() === '') flush();
    else para.push(line);
  }
  flush();
}

/** The front matter block (YAML between `---` lines at the very top) and the body after it. */
function splitFrontMatter(text: string): { yaml: string | null; body: string } {
  const m = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return { yaml: null, body: text };
  return { yaml: m[1]!, body: text.slice(m[0].length) };
}

function fmString(value: unknown): string | undefined {
  if (typeof value === 'string' || typeof value === 'number') return plainText(String(value)) || undefined;
  return undefined;
}

/**
 * Derives binding fields from a Markdown file (pure). Front matter `title`, `summary` (or `description`)
 * and `keyPoints`/`key_points` win; otherwise the card is what core/services/card.ts reads from the text
 * (`projectName`: the package the file documents, when the caller knows it). Fields are cut to their
 * limits: name 200, summary 600, at most 8 key points of at most 160 chars each.
 */
export function parseMarkdownDoc(text: string, fileName: string, projectName?: string): ImportedDoc {
  const warnings: string[] = [];
  const { yaml, body } = splitFrontMatter(text);
  let fm: Record<string, unknown> = {};
  if (yaml !== null) {
    try {
      const parsed: unknown = parseYaml(yaml);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) fm = parsed as Record<string, unknown>;
    } catch (e) {
      warnings.push(`front matter is not valid YAML (${e instanceof Error ? e.message.split('\n')[0] : 'parse error'}); ignored`);
    }
  }
  const card = describeDocument(blocks(yaml === null ? text : body), { fileName, projectName });
  const name = cutAtWord(fmString(fm.title) ?? card.name, MAX_NAME);
  let summary = fmString(fm.summary) ?? fmString(fm.description) ?? card.summary ?? name;
  if (summary.length > MAX_SUMMARY) summary = cutAtWord(summary, MAX_SUMMARY);

  const fmPoints = fm.keyPoints ?? fm.key_points;
  let keyPoints = Array.isArray(fmPoints) ? fmPoints.map(fmString).filter((s): s is string => !!s) : card.keyPoints;
  keyPoints = keyPoints.slice(0, MAX_KEY_POINTS).map((k) => cutAtWord(k, MAX_KEY_POINT));

  return { name, summary, keyPoints, content: text, warnings };
}

export type ImportOutcome =
  | { status: 'created' | 'updated' | 'unchanged'; id: string; version: number; warnings: string[] }
  | { status: 'skipped'; reason: string };

/**
 * Imports one file into a space the caller owns (default: the personal space) as a `human` write. The
 * binding remembers its source path, so importing the same path again adds a version only when the
 * file changed. A file `bindery export` wrote (core/services/export-format.ts) gives its fields exactly
 * as written, content after the export's front matter byte for byte; it updates the binding of its
 * `id` when that one lives in the target space, and adds a version only when a field differs.
 * `projectName` names the package the file documents (a package.json beside it), for its card.
 */
export async function importDocument(
  deps: CoreDeps,
  caller: Caller,
  file: { sourcePath: string; bytes: Uint8Array; space?: string; projectName?: string },
): Promise<ImportOutcome> {
  const text = decodeUtf8(file.bytes);
  if (text === null) return { status: 'skipped', reason: 'not valid UTF-8' };
  const exported = parseExport(text);
  if (exported && 'error' in exported) return { status: 'skipped', reason: exported.error };
  if (!exported && text.trim() === '') return { status: 'skipped', reason: 'empty' };
  const doc: ImportedDoc & { model?: string | null } = exported
    ? fittedExport(exported)
    : parseMarkdownDoc(text, file.sourcePath, file.projectName);
  // An export brings its provenance back; a plain Markdown file is a person's write.
  const provenance = exported ? { source: exported.source, model: doc.model ?? null } : { source: 'human' as const, model: null };
  const fields = { name: doc.name, content: doc.content, summary: doc.summary, keyPoints: doc.keyPoints };
  await deps.tokens.load();
  const space = await resolveWritableSpace(deps, caller, file.space);
  // Another import of the same path, or a delete of its binding, may land between the read and the
  // write; the write then refuses (CONFLICT on sourcePath, NOT_FOUND), and the next round reads again.
  for (let attempt = 0; ; attempt++) {
    try {
      const byId = exported?.id && (await liveBindingInSpace(deps.db, space.id, exported.id)) ? exported.id : undefined;
      const existing = byId ? undefined : await findImportedBinding(deps.db, space.id, file.sourcePath);
      if (!byId && !existing) {
        const row = await createBinding(
          deps,
          caller,
          { ...fields, space: space.id, sourcePath: file.sourcePath, slug: exported?.slug },
          provenance,
        );
        const moved =
          exported?.slug && row.bindingSlug !== exported.slug
            ? [`slug ${exported.slug} is taken in @${space.slug}; this binding is at ${row.bindingSlug}`]
            : [];
        return { status: 'created', id: row.bindingId, version: row.number, warnings: [...doc.warnings, ...moved] };
      }
      if (!exported && existing!.contentHash === (await sha256Hex(doc.content))) {
        return { status: 'unchanged', id: existing!.id, version: existing!.currentVersion, warnings: doc.warnings };
      }
      const { row, changed } = await updateBinding(deps, caller, byId ?? existing!.id, fields, provenance);
      return { status: changed ? 'updated' : 'unchanged', id: row.bindingId, version: row.number, warnings: doc.warnings };
    } catch (e) {
      if (e instanceof BinderyError && (e.code === 'TOO_LARGE' || e.code === 'INVALID_INPUT'))
        return { status: 'skipped', reason: e.message };
      const raced = e instanceof BinderyError && ((e.code === 'CONFLICT' && e.field === 'sourcePath') || e.code === 'NOT_FOUND');
      if (!raced || attempt >= IMPORT_ATTEMPTS) throw e;
    }
  }
}

/** An exported file's fields within the limits (a hand-edited export may pass them), saying what was cut. */
function fittedExport(exported: ExportedBinding): ImportedDoc & { model: string | null } {
  const { fields, warnings } = fitToLimits({
    name: exported.name,
    summary: exported.summary,
    keyPoints: exported.keyPoints,
    content: exported.content,
    model: exported.model,
  });
  return { ...fields, warnings };
}

/** Rounds of importDocument against imports and deletes of the same path landing meanwhile. */
const IMPORT_ATTEMPTS = 3;
