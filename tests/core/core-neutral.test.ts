import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dir, '..', '..', 'core');
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('core is runtime-neutral (ARCHITECTURE.md#layers)', () => {
  const sources = files(root).map((p) => ({ p, src: readFileSync(p, 'utf8') }));
  test('finds the core sources', () => expect(sources.length).toBeGreaterThan(20));
  for (const rule of [
    { what: 'bun:/node: imports', re: /from ['"](bun:|node:)|require\(['"](bun:|node:)/ },
    { what: 'elysia or adapters', re: /from ['"](elysia|@elysiajs\/|(\.\.\/)+adapters)/ },
    { what: 'process.env, Bun.*, Deno.*', re: /process\.env|\bBun\.|\bDeno\./ },
  ]) {
    test(`no ${rule.what} in core/`, () => {
      const bad = sources.filter((s) => rule.re.test(s.src)).map((s) => s.p);
      expect(bad).toEqual([]);
    });
  }
});
