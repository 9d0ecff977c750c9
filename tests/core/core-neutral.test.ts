// The rules of ARCHITECTURE.md#layers, kept by reading the sources: the core is runtime-neutral, db/
// never reaches up into core/, only services import the store, bench/ scripts/ and support/ never import
// tests/, there is no import cycle (type-only imports included), and code comments point at things in
// the repository. An allow-list below names each place that breaks a rule today, with why; shrink it.
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const ROOT = join(import.meta.dir, '..', '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (f === 'node_modules' || f === 'fixtures' || f === 'results') return [];
    return statSync(p).isDirectory() ? files(p) : /\.(ts|mjs)$/.test(f) ? [p] : [];
  });
}

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
  /** The source line before the import (a `// store read:` note there allows a direct store import). */
  before: string;
}

// `import … from`, `export … from`, `import '…'`, and `import('…')` (dynamic imports and inline type references).
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(type\s+)?[^'";]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"](\.[^'"]+)['"]/g;

function edgesOf(path: string): Edge[] {
  const src = readFileSync(path, 'utf8');
  const from = relative(ROOT, path);
  return [...src.matchAll(IMPORT)].map((m) => {
    const start = m.index + (m[0].startsWith('\n') ? 1 : 0);
    const lines = src.slice(0, start).split('\n');
    return { from, to: normalize(join(dirname(from), m[2] ?? m[3] ?? m[4]!)), typeOnly: !!m[1], before: lines.at(-2) ?? '' };
  });
}

const SOURCE_DIRS = ['core', 'db', 'adapters', 'bench', 'scripts', 'support', 'tests'];
const sources = SOURCE_DIRS.flatMap((d) => files(join(ROOT, d)));
const edges = sources.flatMap(edgesOf);
const show = (e: Edge) => `${e.from} -> ${e.to}`;

describe('core is runtime-neutral (ARCHITECTURE.md#layers)', () => {
  const core = files(join(ROOT, 'core')).map((p) => ({ p, src: readFileSync(p, 'utf8') }));
  test('finds the core sources', () => expect(core.length).toBeGreaterThan(20));
  for (const rule of [
    { what: 'bun:/node: imports', re: /from ['"](bun:|node:)|require\(['"](bun:|node:)/ },
    { what: 'elysia or adapters', re: /from ['"](elysia|@elysiajs\/|(\.\.\/)+adapters)/ },
    { what: 'process.env, Bun.*, Deno.*', re: /process\.env|\bBun\.|\bDeno\./ },
  ]) {
    test(`no ${rule.what} in core/`, () => {
      const bad = core.filter((s) => rule.re.test(s.src)).map((s) => s.p);
      expect(bad).toEqual([]);
    });
  }
});

/**
 * Runtime imports of db/store/* from outside core/services/, as they are today. Type-only imports of
 * row types are allowed (they touch no storage); a new direct import needs a `// store read: <why>`
 * line above it, or a service. Remove an entry when its import goes through a service.
 */
const STORE_DOOR_ALLOWED = new Set<string>([
  // Empty: every face reads and writes through core/services. An entry here names a file, the store
  // module it imports at runtime, and above it a comment saying why it may.
]);

describe('the layering of ARCHITECTURE.md#layers', () => {
  test('the import scan finds imports of every kind', () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges.some((e) => e.typeOnly)).toBe(true);
    expect(edges.some((e) => e.from === 'core/context.ts' && e.to === 'db/types.ts')).toBe(true);
  });

  test('db/ never imports core/', () => {
    expect(edges.filter((e) => e.from.startsWith('db/') && e.to.startsWith('core/')).map(show)).toEqual([]);
  });

  test('only services import the store (runtime imports; others are allow-listed with why)', () => {
    const direct = edges.filter(
      (e) =>
        e.to.startsWith('db/store/') &&
        !e.typeOnly &&
        (e.from.startsWith('adapters/') || (e.from.startsWith('core/') && !e.from.startsWith('core/services/'))) &&
        !/\/\/ store read: \S/.test(e.before),
    );
    const found = [...new Set(direct.map(show))];
    expect(found.filter((e) => !STORE_DOOR_ALLOWED.has(e)).sort()).toEqual([]);
    // An entry whose import has gone leaves the list too.
    expect([...STORE_DOOR_ALLOWED].filter((e) => !found.includes(e)).sort()).toEqual([]);
  });

  test('bench/, scripts/ and support/ never import tests/ (shared builders live in support/)', () => {
    expect(edges.filter((e) => /^(bench|scripts|support)\//.test(e.from) && e.to.startsWith('tests/')).map(show)).toEqual([]);
  });

  test('JSON-RPC error codes are named: the SDK ErrorCode or BinderyRpcCode (core/protocol/rpc-error.ts), never a raw -32xxx', () => {
    const home = 'core/protocol/rpc-error.ts';
    const raw = sources
      .map((p) => relative(ROOT, p))
      .filter((p) => /^(core|adapters)\//.test(p) && p !== home)
      .filter((p) =>
        readFileSync(join(ROOT, p), 'utf8')
          .split('\n')
          .some((l) => !/^\s*(\/\/|\*|\/\*)/.test(l) && /(^|[^\w.])-32\d{3}\b/.test(l.split('//')[0]!)),
      );
    expect(raw).toEqual([]);
  });

  test('no import cycle outside tests/, type-only imports included', () => {
    const graph = new Map<string, string[]>();
    for (const e of edges) if (!e.from.startsWith('tests/')) graph.set(e.from, [...(graph.get(e.from) ?? []), e.to]);
    // Tarjan's strongly connected components: any component of two or more files is a cycle.
    let next = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[][] = [];
    const visit = (v: string) => {
      index.set(v, next);
      low.set(v, next++);
      stack.push(v);
      onStack.add(v);
      for (const w of graph.get(v) ?? []) {
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) === index.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== v);
        if (component.length > 1) cycles.push(component.sort());
      }
    };
    for (const v of graph.keys()) if (!index.has(v)) visit(v);
    expect(cycles).toEqual([]);
  });
});

/** Files that still carry a reference to the old documents: rewritten on other branches, or bench titles. */
const OLD_REFERENCES_ALLOWED = new Set([
  'core/search/embeddings.ts',
  'core/search/match.ts',
  'db/store/search-rerank.ts',
  // Bench section titles with an issue number are result keys (bench/results, README's table): they
  // change with the next benchmark run that regenerates the table.
  'bench/everyday.bench.ts',
  'bench/retrieval.bench.ts',
]);
/** Documents a pointer may name that another branch is writing (from the README) as this one lands. */
const DOCS_ON_OTHER_BRANCHES = new Set(['docs/configuration.md', 'docs/http-and-oauth.md']);

describe('code comments point at things in the repository (ARCHITECTURE.md)', () => {
  const code = sources
    .filter((p) => !p.endsWith('db/migrations/bundle.ts'))
    .map((p) => ({ path: relative(ROOT, p), src: readFileSync(p, 'utf8') }));

  test('no CONTRACT §n, STYLE habit n or issue-number references', () => {
    const self = 'tests/core/core-neutral.test.ts';
    const old = /CONTRACT §|STYLE habit|\(issue \d|\bissue \d+[,:' )]|^\/\/ Issue \d/im;
    expect(code.filter((f) => f.path !== self && !OLD_REFERENCES_ALLOWED.has(f.path) && old.test(f.src)).map((f) => f.path)).toEqual([]);
  });

  test('every ARCHITECTURE.md section and docs/ file a comment names exists', () => {
    const architecture = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
    const anchors = new Set(
      [...architecture.matchAll(/^#+ (.+)$/gm)].map((m) =>
        m[1]!
          .toLowerCase()
          .replace(/[^a-z0-9 -]/g, '')
          .replace(/ /g, '-'),
      ),
    );
    const missing: string[] = [];
    for (const f of code) {
      // Comment text only: the part of a line after `//`, and lines of a block comment.
      const comments = f.src
        .split('\n')
        .map((l) => (/^\s*(\/\*|\*)/.test(l) ? l : l.includes('//') ? l.slice(l.indexOf('//')) : ''))
        .join('\n');
      for (const m of comments.matchAll(/ARCHITECTURE\.md#([a-z0-9-]+)/g))
        if (!anchors.has(m[1]!)) missing.push(`${f.path}: ARCHITECTURE.md#${m[1]}`);
      for (const m of comments.matchAll(/\b(docs\/[\w/.-]+\.md)/g)) {
        if (!existsSync(join(ROOT, m[1]!)) && !DOCS_ON_OTHER_BRANCHES.has(m[1]!)) missing.push(`${f.path}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
