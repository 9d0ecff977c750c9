/**
 * Builds dist/ so Node (which cannot load .ts) can embed `bindery/core`, `bindery/db` and
 * `bindery/edge` with no build step of its own. Bun and Deno use the TypeScript sources directly
 * (see the `exports` conditions in package.json). Runs as the package's `prepare` script.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dir, '..');
rmSync(join(root, 'dist'), { recursive: true, force: true });
const result = await Bun.build({
  entrypoints: ['core/index.ts', 'db/index.ts', 'adapters/edge.ts'].map((p) => join(root, p)),
  outdir: join(root, 'dist'),
  root,
  target: 'node',
  format: 'esm',
  splitting: true,
  packages: 'external',
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`dist: ${result.outputs.filter((o) => o.kind === 'entry-point').map((o) => o.path.slice(root.length + 1)).join(', ')}`);
