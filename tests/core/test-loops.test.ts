// The fast loop stays fast: a test file outside the slow list (scripts/test-fast.ts) must not start a
// process, a browser or a runtime, and the slow list names only files that exist.
import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fastTests, isSlowTest, SLOW_TESTS } from '../../scripts/test-fast.ts';

const ROOT = join(import.meta.dir, '../..');
// What starts something outside the test process: a spawn, the spawning helpers of tests/, workerd, Chromium.
const STARTS =
  /Bun\.spawn|spawnSync|child_process|startServer|startStdioServer|StdioClientTransport|cliChild|\bcli\(|[mM]iniflare|playwright|chromium|\w+Target\(/;

describe('the fast loop (bun run test:fast)', () => {
  test('no fast test file starts a process, a browser or a runtime', () => {
    const self = 'tests/core/test-loops.test.ts'; // names the markers, starts nothing
    const starting = fastTests(ROOT).filter((p) => p !== self && STARTS.test(readFileSync(join(ROOT, p), 'utf8')));
    expect(starting).toEqual([]);
  });

  test('every slow entry exists, and the slow files are the ones that start something', () => {
    expect(Object.keys(SLOW_TESTS).filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
    expect(isSlowTest('tests/runtime/npm-embed.test.ts')).toBe(true);
    expect(isSlowTest('tests/core/budget-keep.test.ts')).toBe(false);
    expect(fastTests(ROOT)).toContain('tests/core/test-loops.test.ts');
    expect(fastTests(ROOT).some((p) => p.startsWith('tests/runtime/'))).toBe(false);
  });
});
