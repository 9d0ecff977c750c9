// Which pre-built stdio server `bindery stdio` may run (adapters/stdio-bundle.ts): one built by this Bun,
// in this folder, from the files exactly as they are; any change and the sources run instead.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BundleManifest, freshStdioBundle, STDIO_BUNDLE, stampOf } from '../../adapters/stdio-bundle.ts';

let root: string;
const FILES = ['adapters/stdio.ts', 'core/server.ts', 'package.json', 'bun.lock'];

/** A package folder with sources, a bundle and the manifest a build would have written for them. */
function built(bun = '1.4.5'): string {
  for (const file of FILES) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), `// ${file}\n`);
  }
  const dir = join(root, STDIO_BUNDLE.dir);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, STDIO_BUNDLE.file), '// bundle\n');
  const manifest: BundleManifest = { bun, root, files: Object.fromEntries(FILES.map((f) => [f, stampOf(join(root, f))])) };
  writeFileSync(join(dir, STDIO_BUNDLE.manifest), JSON.stringify(manifest));
  return join(dir, STDIO_BUNDLE.file);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'bindery-bundle-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('freshStdioBundle', () => {
  test('taken while every recorded file is as built, by the same Bun, in the same folder', () => {
    const bundle = built();
    expect(freshStdioBundle(root, '1.4.5')).toBe(bundle);
    expect(freshStdioBundle(root, '1.4.6')).toBeUndefined();
    expect(freshStdioBundle(`${root}/`, '1.4.5')).toBeUndefined();
  });

  test('an edited source (size or time), a changed lock file or a deleted source sends it back to the sources', () => {
    built();
    appendFileSync(join(root, 'core/server.ts'), 'export const x = 1;\n');
    expect(freshStdioBundle(root, '1.4.5')).toBeUndefined();

    built();
    utimesSync(join(root, 'adapters/stdio.ts'), new Date(), new Date(Date.now() + 5000)); // same size, a checkout's new time
    expect(freshStdioBundle(root, '1.4.5')).toBeUndefined();

    built();
    writeFileSync(join(root, 'bun.lock'), '// bun.lock, other versions\n');
    expect(freshStdioBundle(root, '1.4.5')).toBeUndefined();

    built();
    rmSync(join(root, 'core/server.ts'));
    expect(freshStdioBundle(root, '1.4.5')).toBeUndefined();
  });

  test('no manifest, an unreadable one, or a manifest without its bundle: the sources', () => {
    expect(freshStdioBundle(root, '1.4.5')).toBeUndefined();
    const bundle = built();
    rmSync(bundle);
    expect(freshStdioBundle(root, '1.4.5')).toBeUndefined();
    built();
    writeFileSync(join(root, STDIO_BUNDLE.dir, STDIO_BUNDLE.manifest), '{"bun": "1.4.5", "root"');
    expect(freshStdioBundle(root, '1.4.5')).toBeUndefined();
  });
});
