import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';

/**
 * The Markdown file `bindery export` writes for one binding, and its reading by `bindery import`.
 *
 *   ---
 *   bindery: export/1          ← the marker: only such front matter is read back as fields
 *   id: bnd_…
 *   name: …
 *   …
 *   ---
 *   <content, byte for byte>
 *
 * The export's front matter is always present and always first; the content follows its closing
 * `---` line exactly as stored, so content with front matter of its own, `---` lines, CRLF or
 * nothing at all reads back unchanged. The YAML is checked to hold no line that could close it early.
 */
export const EXPORT_MARKER = 'export/1';

/** Room for an exported file's front matter on top of the content limit (fields are bounded: name 200, summary 600, 8 × 160). */
export const FRONT_MATTER_ALLOWANCE = 64 * 1024;

const EXPORT_HEAD = /^---\r?\n(?:bindery: |\{"bindery":)/;

/** True when a file begins as an export does: only such a file may pass the content limit, by its front matter (its content is checked after). */
export function looksExported(bytes: Uint8Array): boolean {
  return EXPORT_HEAD.test(new TextDecoder().decode(bytes.subarray(0, 64)));
}

/** Why content of `size` bytes is refused by the content limit `max`, as import and sync say it. */
export function tooLarge(size: number, max: number): string {
  return `is ${size} bytes; the limit is ${max} bytes (BINDERY_MAX_CONTENT_BYTES)`;
}

/** Why a file read for import or sync is over the limit, or undefined: only a file in the export form may pass it, by its front matter. */
export function fileOverLimit(bytes: Uint8Array, max: number): string | undefined {
  return bytes.length <= max || looksExported(bytes) ? undefined : tooLarge(bytes.length, max);
}

/** The fields an exported file carries. */
export interface ExportedBinding {
  id: string;
  /** The binding's slug (its URL): import takes it again where it is free. */
  slug?: string;
  name: string;
  summary: string;
  keyPoints: string[];
  version: number;
  source: 'human' | 'llm';
  model: string | null;
  updatedAt: string;
  content: string;
}

/** Said in every export (a YAML comment, so readers ignore it): what a round trip does not bring back. */
export const NOT_CARRIED =
  '# bindery import restores name, summary, keyPoints, content, slug (where free), source and model; not older versions, comments, shares, sets, author or dates (docs/operations-export.md)\n';

const DELIMITER_LINE = /^(?:---|\.\.\.)[ \t]*\r?$/m;

/** The file text for one binding. */
export function renderExport(b: ExportedBinding): string {
  const head = {
    bindery: EXPORT_MARKER,
    id: b.id,
    ...(b.slug ? { slug: b.slug } : {}),
    name: b.name,
    summary: b.summary,
    keyPoints: b.keyPoints,
    version: b.version,
    source: b.source,
    model: b.model,
    updatedAt: b.updatedAt,
  };
  let yaml = stringifyYaml(head, { lineWidth: 0, minContentWidth: 0 });
  // Block scalars are indented, so no line can close the front matter; checked anyway, and any
  // doubt (or a value YAML would not give back exactly) falls back to JSON, which is YAML too.
  if (DELIMITER_LINE.test(yaml) || !sameHead(parseYamlSafe(yaml), head)) yaml = `${JSON.stringify(head)}\n`;
  return `---\n${yaml}${NOT_CARRIED}---\n${b.content}`;
}

function parseYamlSafe(text: string): unknown {
  try {
    return parseYaml(text);
  } catch {
    return undefined;
  }
}

function sameHead(a: unknown, b: Record<string, unknown>): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Reads an exported file: its fields, or `null` when the text is not one (no marker: an ordinary
 * Markdown file, imported as such), or an error when it has the marker but fields are missing or wrong.
 */
export function parseExport(text: string): ExportedBinding | { error: string } | null {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text.endsWith('---') ? `${text}\n` : text);
  if (!m) return null;
  // A quick look first: most Markdown front matter is not ours, and is left to the plain import.
  if (!/^(?:bindery:|\{"bindery":)/m.test(m[1]!)) return null;
  const head = parseYamlSafe(m[1]!) as Record<string, unknown> | undefined;
  if (!head || typeof head !== 'object' || head.bindery !== EXPORT_MARKER)
    return head && typeof head === 'object' && 'bindery' in head
      ? { error: `unknown export format "${String(head.bindery)}" (this Bindery reads ${EXPORT_MARKER})` }
      : null;
  const str = (k: string) => (typeof head[k] === 'string' ? (head[k] as string) : undefined);
  const keyPoints = head.keyPoints ?? [];
  if (str('name') === undefined) return { error: 'export front matter: name must be a string' };
  if (str('summary') === undefined) return { error: 'export front matter: summary must be a string' };
  if (!Array.isArray(keyPoints) || keyPoints.some((k) => typeof k !== 'string'))
    return { error: 'export front matter: keyPoints must be a list of strings' };
  const source = head.source === 'llm' ? 'llm' : 'human';
  return {
    id: str('id') ?? '',
    ...(str('slug') ? { slug: str('slug') } : {}),
    name: str('name')!,
    summary: str('summary')!,
    keyPoints: keyPoints as string[],
    version: typeof head.version === 'number' ? head.version : 0,
    source,
    model: str('model') ?? null,
    updatedAt: str('updatedAt') ?? '',
    content: text.slice(m[0].length),
  };
}
