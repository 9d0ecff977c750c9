// Which pre-built stdio server (dist/stdio/, made by scripts/build-stdio.ts at install) `bindery stdio`
// may run: only one built by this Bun from exactly the sources beside it. The build writes a manifest of
// every repository file it read (size and modification time), package.json and bun.lock; one changed
// file (an edit, a pull, a checkout) and the sources run instead, as before there was a bundle.
// Checking costs a stat per file (~190), about a millisecond.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The bundle's file and its manifest, under the package root. */
export const STDIO_BUNDLE = { dir: join('dist', 'stdio'), file: 'stdio-bundled.js', manifest: 'sources.json' } as const;

/** What the build recorded: the Bun that compiled the bytecode, the root it built in, each input's stamp. */
export interface BundleManifest {
  bun: string;
  root: string;
  files: Record<string, string>;
}

/** A file's stamp: size and modification time, or `missing`. */
export function stampOf(path: string): string {
  const s = statSync(path, { throwIfNoEntry: false });
  return s ? `${s.size}:${s.mtimeMs}` : 'missing';
}

/** The bundle's path if it was built by `bunVersion` in `root` from the files as they are now; otherwise undefined. */
export function freshStdioBundle(root: string, bunVersion = Bun.version): string | undefined {
  const dir = join(root, STDIO_BUNDLE.dir);
  let manifest: BundleManifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, STDIO_BUNDLE.manifest), 'utf8')) as BundleManifest;
  } catch {
    return undefined;
  }
  if (manifest.bun !== bunVersion || manifest.root !== root || !manifest.files) return undefined;
  for (const [file, stamp] of Object.entries(manifest.files)) if (stampOf(join(root, file)) !== stamp) return undefined;
  const bundle = join(dir, STDIO_BUNDLE.file);
  return stampOf(bundle) === 'missing' ? undefined : bundle;
}
