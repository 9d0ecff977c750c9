import type { BinderyDb } from '../../db/types.ts';
import { allHelpTopics, getHelpTopic, listHelpTopics, writeHelpTopics, type HelpTopicRow } from '../../db/store/help.ts';
import { getSetting, putSetting } from '../../db/store/settings.ts';
import { bundledHelpTopics, HELP_BUNDLE_HASH } from '../help/bundle.ts';
import { fail } from '../errors.ts';
import type { CoreDeps } from './bindings.ts';

/** Topic names: lowercase words joined by "-" or "/" (`workflow`, `mcp/tools`). */
export const HELP_TOPIC_NAME = /^[a-z0-9]+(?:[-/][a-z0-9]+)*$/;

/** A topic body as the help tool shows it: trimmed, ending with one newline. Its stored count is of this. */
export function helpBody(markdown: string): string {
  return `${markdown.replace(/\r\n?/g, '\n').trim()}\n`;
}

/** The title of a topic: its first heading, else its name. */
export function helpTitle(topic: string, body: string): string {
  return body.match(/^#{1,6}\s+(.+)$/m)?.[1]?.trim() ?? topic;
}

function row(deps: Pick<CoreDeps, 'tokens' | 'now' | 'config'>, topic: string, markdown: string, origin: 'seed' | 'cli'): HelpTopicRow {
  const body = helpBody(markdown);
  return {
    topic,
    title: helpTitle(topic, body),
    body,
    tokenCount: deps.tokens.count(body),
    countsKey: deps.config.tokenizer,
    updatedAt: deps.now(),
    origin,
  };
}

/**
 * Seeds the help topics from the bundle (help/*.md) when the bundle or the tokenizer changed since
 * the last seed: new and changed topics are written, topics gone from the bundle are removed, topics
 * set with `bindery help set` are kept as they are (only recounted for a new tokenizer).
 * Returns how many topics were written or removed.
 */
export async function ensureHelpTopics(deps: CoreDeps): Promise<number> {
  const key = `${HELP_BUNDLE_HASH}|${deps.config.tokenizer}`;
  if ((await getSetting(deps.db, 'help_seed')) === key) return 0;
  await deps.tokens.load();
  const current = new Map((await allHelpTopics(deps.db)).map((r) => [r.topic, r]));
  const writes: HelpTopicRow[] = [];
  for (const { topic, body } of bundledHelpTopics) {
    const have = current.get(topic);
    if (have?.origin === 'cli') continue;
    const next = row(deps, topic, body, 'seed');
    if (!have || have.body !== next.body || have.tokenCount !== next.tokenCount) writes.push(next);
  }
  for (const have of current.values()) {
    if (have.origin !== 'cli') continue;
    const count = deps.tokens.count(have.body);
    if (count !== have.tokenCount) writes.push({ ...have, tokenCount: count });
  }
  const bundled = new Set(bundledHelpTopics.map((t) => t.topic));
  const remove = [...current.values()].filter((r) => r.origin === 'seed' && !bundled.has(r.topic)).map((r) => r.topic);
  await writeHelpTopics(deps.db, writes, remove);
  await putSetting(deps.db, 'help_seed', key);
  return writes.length + remove.length;
}

/**
 * Topics with token counts for this process's tokenizer: a topic counted by a process with another
 * one (a seed or `bindery help set` run beside a server) is recounted in memory, never written back.
 */
export async function freshHelpCounts<T extends { body: string; tokenCount: number; countsKey: string }>(
  deps: Pick<CoreDeps, 'tokens' | 'config'>,
  rows: T[],
): Promise<T[]> {
  const stale = rows.filter((r) => r.countsKey !== deps.config.tokenizer);
  if (stale.length === 0) return rows;
  await deps.tokens.load();
  for (const r of stale) Object.assign(r, { tokenCount: deps.tokens.count(r.body), countsKey: deps.config.tokenizer });
  return rows;
}

const seeded = new WeakMap<BinderyDb, Promise<number>>();

/** `ensureHelpTopics` once per database handle, for runtimes whose start-up does not seed (edge). */
export function ensureHelpTopicsOnce(deps: CoreDeps): Promise<number> {
  let p = seeded.get(deps.db);
  if (!p) {
    p = ensureHelpTopics(deps).catch((err) => {
      seeded.delete(deps.db);
      throw err;
    });
    seeded.set(deps.db, p);
  }
  return p;
}

/**
 * Replaces (or adds) a topic from Markdown without a deploy (`bindery help set`). The topic is marked
 * as set by hand, so later seeds from the repository leave it alone.
 */
export async function setHelpTopic(deps: CoreDeps, topic: string, markdown: string): Promise<HelpTopicRow> {
  if (!HELP_TOPIC_NAME.test(topic)) throw fail.invalid('topic', 'must be lowercase letters and digits, words joined by "-" or "/"');
  if (markdown.trim().length === 0) throw fail.invalid('file', 'is empty');
  // libSQL cuts text at a NUL: the stored body would be shorter than the one counted.
  if (markdown.includes('\u0000')) throw fail.invalid('file', 'must not contain NUL characters (U+0000); is it a binary file?');
  await deps.tokens.load();
  const next = row(deps, topic, markdown, 'cli');
  const max = deps.config.maxResponseTokens;
  if (next.tokenCount > max)
    throw fail.tooLarge(
      'file',
      `is ${next.tokenCount} tokens; a topic is one answer, so at most ${max} (BINDERY_MAX_RESPONSE_TOKENS). Split it into several topics.`,
    );
  await writeHelpTopics(deps.db, [next]);
  return next;
}

/** The topics as stored (seeded ones and those set by hand), counts as stored: `bindery help list`. */
export function storedHelpTopics(db: BinderyDb) {
  return listHelpTopics(db);
}

/** Names a topic can be set under without `--new`: the bundled ones and those already in the database. */
export async function knownHelpTopics(db: BinderyDb): Promise<string[]> {
  const names = new Set([...bundledHelpTopics.map((t) => t.topic), ...(await allHelpTopics(db)).map((r) => r.topic)]);
  return [...names].sort();
}

/**
 * Undoes `bindery help set`: a topic the repository also ships goes back to its bundled text; any other
 * topic set by hand is removed. A bundled topic never set by hand cannot be deleted (the next seed
 * would bring it back): edit help/<topic>.md instead.
 */
export async function deleteHelpTopic(deps: CoreDeps, topic: string): Promise<'restored' | 'removed'> {
  const have = (await allHelpTopics(deps.db)).find((r) => r.topic === topic);
  const bundled = bundledHelpTopics.find((t) => t.topic === topic);
  if (!have && !bundled) throw fail.notFound('help topic', topic, 'topic');
  if (bundled && have?.origin !== 'cli')
    throw fail.invalid(
      'topic',
      `"${topic}" is a bundled topic with its bundled text; change help/${topic}.md and redeploy, or replace it with help set`,
    );
  await writeHelpTopics(deps.db, [], [topic]);
  if (!bundled) return 'removed';
  await deps.tokens.load();
  await writeHelpTopics(deps.db, [row(deps, topic, bundled.body, 'seed')]);
  return 'restored';
}

/** Every help topic, seeded once per database and counted for this configuration. */
export async function readHelpTopics(deps: CoreDeps) {
  await ensureHelpTopicsOnce(deps);
  return freshHelpCounts(deps, await listHelpTopics(deps.db));
}

/** One help topic by its (lowercase) name, counted for this configuration; undefined if there is none. */
export async function readHelpTopic(deps: CoreDeps, topic: string) {
  const found = await getHelpTopic(deps.db, topic);
  return found && (await freshHelpCounts(deps, [found]))[0];
}
