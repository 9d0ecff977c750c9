// The rule of core/web/page.ts, kept by reading the sources and loading the modules: every HTML page is
// a load and a view. Views (core/web/views/) are synchronous and reach, at run time, nothing but the
// template (core/web/html.ts) and other views, so they cannot read a database, call a tool or a
// service, or see a request; type-only imports name the data's shape and compile away. Page modules
// export their pages through definePage / defineAction, and write no markup themselves: outside the
// views only the Markdown renderer uses the template.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { isPage } from '../../core/web/page.ts';
import type { WebRoute } from '../../core/web/route.ts';

const ROOT = join(import.meta.dir, '..', '..');
const VIEWS = 'core/web/views';
const TEMPLATE = 'core/web/html.ts';

// `import … from '…'` and `export … from '…'`, with what is imported (to tell type-only ones apart).
const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** The modules `file` (relative to the root) imports at run time: type-only imports left out. */
function runtimeImports(file: string): string[] {
  const src = readFileSync(join(ROOT, file), 'utf8');
  return [...src.matchAll(IMPORT)]
    .filter((m) => {
      if (m[5]) return true;
      if (m[2]) return false;
      const names = /^\{([^}]*)\}$/.exec(m[3]!.trim())?.[1];
      // `import { type A, type B }` is type-only too.
      return !names?.split(',').every((n) => !n.trim() || /^type\s/.test(n.trim()));
    })
    .map((m) => normalize(join(dirname(file), m[4] ?? m[5]!)));
}

const tsFiles = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `${dir}/${f}`);

function allCore(dir = 'core'): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? allCore(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );
}

describe('views are pure (core/web/views/)', () => {
  const views = tsFiles(VIEWS);
  test('finds the views', () => expect(views.length).toBeGreaterThanOrEqual(10));

  test('the import scan tells type-only imports apart', () => {
    expect(runtimeImports('core/web/views/layout.ts')).toEqual([TEMPLATE]);
    expect(runtimeImports('core/web/views/binding.ts')).not.toContain('db/store/bindings.ts');
    expect(runtimeImports('core/web/pages/binding.ts')).toContain('core/services/bindings.ts');
  });

  test('a view reaches at run time only the template and other views', () => {
    const bad: string[] = [];
    const seen = new Set<string>();
    const walk = (from: string, file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      if (file !== TEMPLATE && !file.startsWith(`${VIEWS}/`)) bad.push(`${from} -> ${file}`);
      else for (const to of runtimeImports(file)) walk(file, to);
    };
    for (const v of views) walk(v, v);
    expect(bad).toEqual([]);
  });

  test('views are synchronous: no async, await or Promise', () => {
    expect(views.filter((v) => /\basync\b|\bawait\b|\bPromise\b/.test(readFileSync(join(ROOT, v), 'utf8')))).toEqual([]);
  });
});

describe('page modules export pages (core/web/page.ts)', () => {
  const webPages = tsFiles('core/web/pages').filter((f) => f !== 'core/web/pages/common.ts');

  test('every web-app route is a page declared with definePage or defineAction', async () => {
    expect(webPages.length).toBeGreaterThanOrEqual(7);
    const bad: string[] = [];
    let routes = 0;
    for (const file of webPages) {
      const mod = (await import(join(ROOT, file))) as Record<string, unknown>;
      const tables = Object.entries(mod).filter(([name]) => name.endsWith('Routes'));
      if (tables.length === 0) bad.push(`${file}: exports no routes`);
      for (const [name, table] of tables)
        for (const r of table as WebRoute[]) {
          routes++;
          if (!isPage(r.page)) bad.push(`${file}: ${name} ${r.method} ${r.path.source}`);
        }
    }
    expect(bad).toEqual([]);
    expect(routes).toBeGreaterThan(20);
  });

  test('the public and OAuth page modules export their pages', async () => {
    const expected = {
      'core/http/pages.ts': ['publicPage'],
      'core/http/link-index.ts': ['linkIndexPage'],
      'core/oauth/authorize.ts': ['authorizePage', 'authorizeAction'],
      'core/oauth/grants.ts': ['grantsPage', 'revokeGrantAction'],
    };
    for (const [file, names] of Object.entries(expected)) {
      const mod = (await import(join(ROOT, file))) as Record<string, unknown>;
      const pages = Object.entries(mod)
        .filter(([, v]) => isPage(v))
        .map(([k]) => k);
      expect({ file, pages: pages.sort() }).toEqual({ file, pages: [...names].sort() });
    }
  });

  test('a value not declared as a page is not one', () => {
    expect(isPage({ load: async () => new Response(), view: () => '' })).toBe(false);
  });

  test('markup is written only in views: outside them only the Markdown renderer uses the template', () => {
    const users = allCore()
      .filter((f) => !f.startsWith(`${VIEWS}/`) && f !== TEMPLATE)
      .filter((f) => runtimeImports(f).includes(TEMPLATE));
    expect(users.map((f) => relative(ROOT, join(ROOT, f)))).toEqual(['core/http/markdown.ts']);
  });
});
