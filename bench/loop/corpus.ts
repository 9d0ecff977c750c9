// The two corpora of the model-in-the-loop harness, as folders of Markdown that both agents
// read: `thirdparty` (the README.md files listed in thirdparty-files.txt, copied out of node_modules,
// which bun.lock keeps fixed) and `private` (bench/loop/private/*.md, documents of a made-up company
// that no model has seen).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { createHash } from 'node:crypto';

export const LOOP_DIR = import.meta.dir;
export const ROOT = join(LOOP_DIR, '..', '..');
export const CACHE_DIR = join(LOOP_DIR, '.cache');
export const CORPORA = ['thirdparty', 'private'] as const;
export type CorpusName = (typeof CORPORA)[number];

export interface LoopCorpus {
  name: CorpusName;
  /** The folder the grep agent searches; file paths below are relative to it. */
  dir: string;
  files: { path: string; text: string }[];
  /** sha256 over every path and text: a changed corpus is a new database. */
  hash: string;
}

/** The corpus name from a flag value or LOOP_CORPUS; a clear error otherwise. */
export function corpusName(raw: string | undefined): CorpusName {
  if (raw && (CORPORA as readonly string[]).includes(raw)) return raw as CorpusName;
  throw new Error(
    `corpus: give --corpus ${CORPORA.join('|')} or set LOOP_CORPUS (got ${raw === undefined ? 'nothing' : JSON.stringify(raw)})`,
  );
}

/** Loads a corpus; the third-party one is (re)materialised under .cache/corpus/thirdparty. */
export function loadCorpus(name: CorpusName): LoopCorpus {
  let dir: string;
  let files: { path: string; text: string }[];
  if (name === 'private') {
    dir = join(LOOP_DIR, 'private');
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => ({ path: f, text: readFileSync(join(dir, f), 'utf8') }));
  } else {
    dir = join(CACHE_DIR, 'corpus', 'thirdparty');
    const list = readFileSync(join(LOOP_DIR, 'thirdparty-files.txt'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    files = list.map((path) => {
      const text = readFileSync(join(ROOT, 'node_modules', path), 'utf8');
      const out = join(dir, path);
      if (!existsSync(out) || readFileSync(out, 'utf8') !== text) {
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, text);
      }
      return { path, text };
    });
  }
  const h = createHash('sha256');
  for (const f of files) h.update(f.path).update('\0').update(f.text).update('\0');
  return { name, dir, files, hash: h.digest('hex') };
}

/** sha256 of Bindery's own source (core/, db/): a changed import or index is a new database. */
export function sourceHash(): string {
  const h = createHash('sha256');
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|sql|json)$/.test(e.name)) h.update(relative(ROOT, p).split(sep).join('/')).update(readFileSync(p));
    }
  };
  walk(join(ROOT, 'core'));
  walk(join(ROOT, 'db'));
  return h.digest('hex');
}
