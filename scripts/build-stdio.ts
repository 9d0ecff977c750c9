// Builds the stdio server into one file with Bun's bytecode beside it (dist/stdio/), which
// `bindery stdio` runs while it matches the sources (adapters/stdio-bundle.ts): a launch then neither
// resolves and reads ~480 modules nor parses and compiles them. Run by the package's `prepare` (so
// `bun install` in a clone builds it) and by hand: `bun scripts/build-stdio.ts [outdir]`. The tokenizer's
// rank tables stay outside (loaded from node_modules, and by the worker thread, only when needed).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type BundleManifest, STDIO_BUNDLE, stampOf } from '../adapters/stdio-bundle.ts';

const root = join(import.meta.dir, '..');

/** Builds the bundle into `outdir` (the manifest last, so a failed build is never taken for a fresh one). */
export async function buildStdioBundle(outdir = join(root, STDIO_BUNDLE.dir)): Promise<{ files: number; bytes: number }> {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await Bun.build({
    entrypoints: [join(root, 'adapters', 'stdio-bundled.ts')],
    outdir,
    target: 'bun',
    format: 'cjs',
    bytecode: true,
    external: ['js-tiktoken/ranks/*'],
    metafile: true,
  });
  if (!result.success) throw new AggregateError(result.logs, 'stdio bundle: build failed');
  const inputs = Object.keys(result.metafile?.inputs ?? {}).map((p) => relative(root, join(root, p)));
  if (!inputs.includes(join('adapters', 'stdio.ts'))) throw new Error('stdio bundle: the build reported no inputs');
  const own = inputs.filter((p) => !p.startsWith('node_modules') && !p.startsWith('..'));
  const files: Record<string, string> = {};
  for (const file of [...own, 'package.json', 'bun.lock'].sort()) files[file] = stampOf(join(root, file));
  const manifest: BundleManifest = { bun: Bun.version, root, files };
  writeFileSync(join(outdir, STDIO_BUNDLE.manifest), `${JSON.stringify(manifest, null, 1)}\n`);
  return { files: inputs.length, bytes: result.outputs.reduce((n, o) => n + o.size, 0) };
}

if (import.meta.main) {
  const outdir = process.argv[2];
  const { files, bytes } = await buildStdioBundle(outdir ? join(process.cwd(), outdir) : undefined);
  console.log(`dist/stdio: ${files} modules in one file with bytecode (${(bytes / 2 ** 20).toFixed(1)} MB)`);
}
