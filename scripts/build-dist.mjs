// Builds dist/ so Node (which cannot load .ts) can embed `bindery/core`, `bindery/db` and
// `bindery/edge` with no build step of its own. Plain JavaScript on purpose: it is the package's
// `prepare` script, and npm runs that with Node (no Bun) when someone installs Bindery from a clone or a
// git URL. Each source file is transpiled on its own by TypeScript (a devDependency, which npm installs
// before `prepare`), relative `.ts` imports rewritten to `.js`; no bundling, so dist/ mirrors the tree
// and bare imports stay for Node to resolve. Only dist/core, dist/db and dist/adapters are replaced:
// dist/worker (the Workers bundle, `bun run build:worker`) survives an install.
// Without TypeScript (a global install or `npm install --omit=dev` from a clone, where npm runs
// `prepare` before any devDependency is there) it builds nothing and says so: the `bindery` command
// runs the sources on Bun and needs no dist/; only Node embedders do, and they install with dev deps.
// First it builds the stdio server's bundle (dist/stdio/, scripts/build-stdio.ts), which needs Bun and not
// TypeScript; without Bun it says so and goes on (the `bindery` command then runs the sources).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bun = process.env.BINDERY_BUN || (process.versions.bun ? process.execPath : 'bun');
let depsInstalled = true;
try {
  createRequire(join(root, 'package.json')).resolve('@modelcontextprotocol/sdk/server/mcp.js');
} catch {
  depsInstalled = false;
}
if (!depsInstalled) {
  // `npm i -g <clone>` runs prepare before any dependency is there; bin/bindery.js builds it after installing them.
  console.log('dist/stdio: skipped (dependencies not installed yet); bindery stdio runs the sources until it is built');
} else {
  const stdio = spawnSync(bun, [join(root, 'scripts', 'build-stdio.ts')], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (stdio.error || stdio.status !== 0) {
    console.log(`dist/stdio: skipped (${stdio.error ? `no ${bun} to build with` : 'the build failed'}); bindery stdio runs the sources`);
  }
}

const ts = await import('typescript').then(
  (m) => m.default,
  (err) => {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
    return undefined;
  },
);
if (!ts) {
  console.log(
    'dist: skipped (typescript is not installed); the bindery command runs on Bun without it, and Node embedders get dist/ from `npm install` with dev dependencies',
  );
  process.exit(0);
}

const out = join(root, 'dist');
const entries = ['core/index.ts', 'db/index.ts', 'adapters/edge.ts'];

/** Relative imports a module names (static and literal dynamic), as repo paths. */
function localImports(file, text) {
  const found = [];
  for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    found.push(relative(root, join(dirname(join(root, file)), m[1])));
  }
  return found;
}

// Walk from the entry points so dist/ holds what the three exports load, and nothing else.
const files = new Set();
const queue = [...entries];
while (queue.length) {
  const file = queue.pop();
  if (files.has(file)) continue;
  if (!file.endsWith('.ts')) throw new Error(`${file}: relative imports must name their .ts file`);
  files.add(file);
  queue.push(...localImports(file, readFileSync(join(root, file), 'utf8')));
}

for (const part of ['core', 'db', 'adapters']) rmSync(join(out, part), { recursive: true, force: true });
for (const name of statSync(out, { throwIfNoEntry: false }) ? readdirSync(out) : []) {
  if (/^chunk-.*\.js$/.test(name)) rmSync(join(out, name)); // left by the former bundled build
}
const compilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  verbatimModuleSyntax: false,
  isolatedModules: true,
  rewriteRelativeImportExtensions: true,
  sourceMap: false,
};
for (const file of files) {
  const source = readFileSync(join(root, file), 'utf8');
  const { outputText, diagnostics } = ts.transpileModule(source, { compilerOptions, fileName: file, reportDiagnostics: true });
  if (diagnostics?.length) throw new Error(`${file}: ${ts.flattenDiagnosticMessageText(diagnostics[0].messageText, '\n')}`);
  const target = join(out, file.replace(/\.ts$/, '.js'));
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, outputText);
}
console.log(`dist: ${files.size} modules for ${entries.map((e) => e.replace(/\.ts$/, '.js')).join(', ')}`);
