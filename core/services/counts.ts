import type { BinderyConfig } from '../config.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import { countBlocks, RENDER_REVISION, renderPreview, type BlockCounts, type VersionFacts } from '../budget/tier.ts';
import { fitCard } from '../budget/card-fit.ts';
import { contentsByVersionId, sectionsByVersionId } from '../../db/store/contents.ts';
import type { BinderyDb } from '../../db/types.ts';

/** What stored block counts depend on: the render revision, the tokenizer and the public URL. */
export function renderKey(deps: { config: Pick<BinderyConfig, 'tokenizer' | 'publicUrl'> }): string {
  return `r${RENDER_REVISION}|${deps.config.tokenizer}|${deps.config.publicUrl}`;
}

/** The counted facts of a version as rows carry them (every store read selects these). */
export type CountedRow = Omit<VersionFacts, 'bindingId'> &
  BlockCounts & { bindingId: string; versionId: string; countsKey: string; content?: string };

export interface RecountDeps {
  db: BinderyDb;
  tokens: TokenCounter;
  config: Pick<BinderyConfig, 'tokenizer' | 'publicUrl'>;
}

type Counts = Pick<
  CountedRow,
  | 'contentTokenCount'
  | 'summaryTokenCount'
  | 'headBlockTokens'
  | 'lineBlockTokens'
  | 'previewBlockTokens'
  | 'contentBlockTokens'
  | 'outlineBlockTokens'
  | 'sections'
  | 'headCut'
>;

/**
 * Makes every row's counts describe the text this process renders. A row carries the key its counts
 * were made for; a row written (or last recounted) by a process with another tokenizer, public URL or
 * render revision is recounted here, in memory, and never written back: reads stay read-only, and no
 * process ever rewrites counts another relies on. Each row's counts are replaced whole, so a row is
 * either trusted as stored or recounted — never a mixture. Rows are changed in place and returned.
 */
export async function freshCounts<T extends CountedRow>(deps: RecountDeps, rows: T[]): Promise<T[]> {
  const key = renderKey(deps);
  const stale = rows.filter((r) => r.countsKey !== key);
  if (stale.length === 0) return rows;
  const memo = memoFor(deps.db, key);
  const missing = stale.filter((r) => !memo.has(memoKey(r)));
  if (missing.length > 0) {
    await deps.tokens.load();
    // Only the URL differs: only the card shows it, so only the card (and a tier-1.5 block whose cut moved) is recounted, from stored facts.
    const full = missing.filter((r) => !sameButUrl(r.countsKey, key));
    for (const r of missing) if (sameButUrl(r.countsKey, key)) remember(memo, memoKey(r), { ...r, ...recountHead(deps, r) });
    const contents = await contentsByVersionId(
      deps.db,
      full.filter((r) => r.content === undefined).map((r) => r.versionId),
    );
    for (const r of full) {
      const content = r.content ?? contents.get(r.versionId);
      if (content === undefined) continue; // vanished meanwhile: the caller's row is about to be dropped anyway
      remember(memo, memoKey(r), recount(deps, r, content));
    }
  }
  for (const r of stale) {
    const counts = memo.get(memoKey(r));
    if (counts) Object.assign(r, pickCounts(counts), { countsKey: key });
  }
  return rows;
}

/** True when two render keys differ in the public URL alone (the URL is last and may hold "|"). */
export function sameButUrl(a: string, b: string): boolean {
  const head = (k: string) => k.split('|').slice(0, 2).join('|');
  return a !== '' && head(a) === head(b);
}

/** The counts of a row; `sections` only when known (a URL-only recount keeps the stored ones, loaded later). */
function pickCounts(c: Counts): Counts {
  const {
    contentTokenCount,
    summaryTokenCount,
    headBlockTokens,
    lineBlockTokens,
    previewBlockTokens,
    contentBlockTokens,
    outlineBlockTokens,
    sections,
    headCut,
  } = c;
  return {
    contentTokenCount,
    summaryTokenCount,
    headBlockTokens,
    lineBlockTokens,
    previewBlockTokens,
    contentBlockTokens,
    outlineBlockTokens,
    headCut,
    ...(sections !== undefined ? { sections } : {}),
  };
}

/**
 * Fills `sections` on rows that lack it, after freshCounts: rows recounted in memory already carry
 * theirs (the stored ones were made for another key), the rest are read from the database. Only
 * tier-1.5 outlines, section reads and query packing call this: lists never load sections.
 */
export async function loadSections(deps: Pick<RecountDeps, 'db'>, rows: CountedRow[]): Promise<void> {
  const missing = rows.filter((r) => r.sections === undefined);
  if (missing.length === 0) return;
  const stored = await sectionsByVersionId(
    deps.db,
    missing.map((r) => r.versionId),
  );
  for (const r of missing) r.sections = stored.get(r.versionId) ?? '';
}

/**
 * The contents of the rows that were read without theirs, by version id: pass only rows already read
 * through an access check (a list, a search, a batch read). Rows carrying their content are not read again.
 */
export function missingContents(deps: Pick<RecountDeps, 'db'>, rows: readonly CountedRow[]): Promise<Map<string, string>> {
  return contentsByVersionId(
    deps.db,
    rows.filter((r) => r.content === undefined).map((r) => r.versionId),
  );
}

/** Versions are immutable and slugs never change; the slugs are in the key all the same, as the head shows them. */
function memoKey(r: CountedRow): string {
  return `${r.versionId}|${r.spaceSlug}|${r.bindingSlug}`;
}

/**
 * The card of a version for a new public URL, from stored facts (no content read): the URL can move the
 * card's cut, and the tier-1.5 block (which shows what the card leaves out, never the URL) is recounted
 * only when it does.
 */
export function recountHead(
  deps: Omit<RecountDeps, 'db'>,
  v: VersionFacts & Pick<BlockCounts, 'headCut' | 'previewBlockTokens'>,
): Pick<Counts, 'headBlockTokens' | 'headCut' | 'previewBlockTokens'> {
  const { headBlockTokens, headCut } = fitCard(v, deps.config.publicUrl, deps.tokens);
  const previewBlockTokens = headCut === v.headCut ? v.previewBlockTokens : deps.tokens.count(renderPreview({ ...v, headCut }));
  return { headBlockTokens, headCut, previewBlockTokens };
}

/** The counts of one version for this configuration, from its text. */
export function recount(
  deps: Omit<RecountDeps, 'db'>,
  v: Omit<VersionFacts, 'contentTokenCount' | 'summaryTokenCount'> & { bindingId: string },
  content: string,
): Counts {
  const contentTokenCount = deps.tokens.count(content);
  const summaryTokenCount = deps.tokens.count(v.summary);
  const facts: VersionFacts = { ...v, contentTokenCount, summaryTokenCount };
  return { contentTokenCount, summaryTokenCount, ...countBlocks(facts, content, deps.config.publicUrl, deps.tokens) };
}

/** Recounted rows kept per database handle and key, so a server beside another configuration recounts each version once. */
const memos = new WeakMap<object, Map<string, Map<string, Counts>>>();
const MEMO_LIMIT = 20_000;

function memoFor(db: object, key: string): Map<string, Counts> {
  let byKey = memos.get(db);
  if (!byKey) memos.set(db, (byKey = new Map()));
  let memo = byKey.get(key);
  if (!memo) byKey.set(key, (memo = new Map()));
  return memo;
}

function remember(memo: Map<string, Counts>, id: string, counts: Counts): void {
  // Versions are immutable, so an entry never goes stale; the oldest leave first past the limit.
  if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value!);
  memo.set(id, pickCounts(counts));
}
