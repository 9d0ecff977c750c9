import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dir, '..');
const BOILERPLATE = /changelog|history|license|security|contributing|code_of_conduct/i;

/**
 * Distinct Markdown files under node_modules (at least 300 bytes), sorted by path: real text for
 * benchmarks. `readmesOnly` keeps README.md files; `skipBoilerplate` drops changelogs, licences and such;
 * `mdx` also takes .mdx files (bun-types ships its documentation so: over a thousand real pages).
 */
export function markdownCorpus(
  opts: { readmesOnly?: boolean; skipBoilerplate?: boolean; mdx?: boolean } = {},
): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const seen = new Set<string>();
  const wanted = (name: string) =>
    (opts.mdx ? /\.mdx?$/i : /\.md$/i).test(name) &&
    !(opts.skipBoilerplate && BOILERPLATE.test(name)) &&
    (!opts.readmesOnly || /^readme\.md$/i.test(name));
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && wanted(entry.name) && statSync(path).size >= 300) {
        const text = readFileSync(path, 'utf8');
        if (!seen.has(text)) {
          seen.add(text);
          out.push({ path, text });
        }
      }
    }
  };
  walk(join(root, 'node_modules'));
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}
