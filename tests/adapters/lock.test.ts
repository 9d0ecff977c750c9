// bindery.lock.json governance: the diff engine on a modified tool surface, and the real CLI on a
// temporary lock file (the repository's lock is never touched).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { createRegistry, DEFAULT_CONFIG, type AnyTool } from '../../core/index.ts';
import { buildLock, diffLock, formatLockCheck, parseLock, serializeLock, type LockChange } from '../../core/footprint/lock.ts';
import { testCounter } from '../helpers.ts';
import type { TokenCounter } from '../../core/tokens/counter.ts';

const root = join(import.meta.dir, '..', '..');
const tools = createRegistry().all;
let tokens: TokenCounter;
beforeAll(async () => {
  tokens = await testCounter();
});

const lockOf = (list: readonly AnyTool[]) => buildLock(list, tokens, DEFAULT_CONFIG);
const replace = (name: string, change: (t: AnyTool) => AnyTool) => tools.map((t) => (t.name === name ? change(t) : t));
const labels = (changes: LockChange[]) => changes.map((c) => `${c.severity} ${c.tool}: ${c.change}`);

describe('diffLock', () => {
  test('an unchanged surface has no drift and the lock round-trips', () => {
    const lock = lockOf(tools);
    expect(diffLock(lock, lockOf(tools))).toEqual([]);
    expect(parseLock(serializeLock(lock))).toEqual(lock);
    expect(Object.keys(lock.tools)).toEqual(tools.map((t) => t.name));
    expect(lock.tools.create_binding).toMatchObject({ bound: 'tokens', risk: 'low', arguments: { name: 'required', space: 'optional' } });
    expect(lock.tools.create_binding!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(lock.summary.definitionTokens).toBe(Object.values(lock.tools).reduce((n, t) => n + t.definitionTokens, 0));
  });

  test('a widened tool: became unbounded (RISKY), risk went up (BREAKING), grew > 20% (RISKY)', () => {
    const widened = replace('delete_binding', (t) => ({
      ...t,
      bound: { kind: 'unbounded' },
      description: `${t.description} ${t.description} ${t.description}`,
    }));
    const changes = labels(diffLock(lockOf(tools), lockOf(widened)));
    expect(changes).toContainEqual(expect.stringMatching(/^BREAKING delete_binding: risk went up: low → critical/));
    expect(changes).toContainEqual('RISKY delete_binding: became unbounded (was tokens)');
    expect(changes).toContainEqual(
      expect.stringMatching(/^RISKY delete_binding: definition grew \d+ → \d+ tokens \(\+\d+\.\d%; model-visible \d+ → \d+\)$/),
    );
    // BREAKING first, then RISKY.
    expect(changes[0]).toStartWith('BREAKING');
  });

  test('arguments: removed or made required is BREAKING; new optional is SAFE', () => {
    const get = tools.find((t) => t.name === 'get_binding')!;
    const shape = (get.input as z.ZodObject).shape;
    const { version: _v, ...rest } = shape;
    const changed = replace('get_binding', (t) => ({
      ...t,
      input: z.strictObject({ ...rest, tier: z.enum(['1', '1.5', '2']), verbose: z.boolean().optional() }),
    }));
    const changes = labels(diffLock(lockOf(tools), lockOf(changed)));
    expect(changes).toContainEqual('BREAKING get_binding: argument "version" removed');
    expect(changes).toContainEqual('BREAKING get_binding: argument "tier" made required');
    expect(changes).toContainEqual('SAFE get_binding: new optional argument "verbose"');
  });

  test('a removed tool is BREAKING, an added one SAFE, a tighter bound SAFE', () => {
    const without = tools.filter((t) => t.name !== 'list_versions');
    expect(labels(diffLock(lockOf(tools), lockOf(without)))).toEqual(['BREAKING list_versions: tool removed']);
    expect(labels(diffLock(lockOf(without), lockOf(tools)))).toEqual([expect.stringMatching(/^SAFE list_versions: tool added/)]);
    const tighter = replace('get_binding', (t) => ({ ...t, bound: { kind: 'tokens', maxTokens: 900 } }));
    const changes = diffLock(lockOf(tools), lockOf(tighter));
    expect(changes.every((c) => c.severity === 'SAFE')).toBe(true);
    expect(labels(changes)).toContainEqual('SAFE get_binding: risk went down: critical → low');
  });

  test('the report names every change and how to accept them', () => {
    const widened = replace('delete_binding', (t) => ({ ...t, bound: { kind: 'unbounded' } }));
    const text = formatLockCheck(diffLock(lockOf(tools), lockOf(widened)), lockOf(widened));
    expect(text).toContain('is out of date: 2 changes (1 BREAKING, 1 RISKY, 0 SAFE)');
    expect(text).toContain('BREAKING  delete_binding');
    expect(text).toContain('bindery lock');
    expect(formatLockCheck([], lockOf(tools))).toContain('matches the lock');
  });
});

describe('bindery lock CLI (on a temporary lock file)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bindery-lock-'));
  const file = join(dir, 'bindery.lock.json');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cli = (...args: string[]) => {
    const r = Bun.spawnSync(['bun', 'adapters/cli.ts', 'lock', ...args], {
      cwd: root,
      env: { ...process.env, BINDERY_TOOL_MODE: 'eager' },
    });
    return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
  };

  test('--check without a lock file fails with a clear message', () => {
    const r = cli('--check', '--file', file);
    expect(r.code).toBe(1);
    expect(r.err).toContain('does not exist');
  });

  test('lock writes, --check passes, a widened tool fails the check, lock again passes', () => {
    const wrote = cli('--file', file);
    expect(wrote.code).toBe(0);
    expect(wrote.out).toContain(`${tools.length} tools`);
    expect(cli('--check', '--file', file)).toMatchObject({ code: 0 });
    // Make the lock describe a narrower get_bindings than the code has: smaller, bounded, low risk,
    // with an optional argument the code no longer takes. The code is then "widened" against it.
    const lock = JSON.parse(readFileSync(file, 'utf8'));
    const entry = lock.tools.get_bindings;
    entry.definitionTokens = Math.round(entry.definitionTokens / 2);
    entry.hash = '0'.repeat(64);
    Object.assign(entry, { bound: 'tokens', bounded: true, worstCaseTokens: 500, risk: 'low' });
    entry.arguments.legacy = 'optional';
    writeFileSync(file, JSON.stringify(lock, null, 2));
    const drift = cli('--check', '--file', file);
    expect(drift.code).toBe(1);
    expect(drift.err).toContain('BREAKING  get_bindings  argument "legacy" removed');
    expect(drift.err).toMatch(/BREAKING {2}get_bindings {2}risk went up: low → critical/);
    expect(drift.err).toMatch(/RISKY {5}get_bindings {2}definition grew \d+ → \d+ tokens/);
    expect(cli('--file', file).code).toBe(0);
    const pass = cli('--check', '--file', file);
    expect(pass.code).toBe(0);
    expect(pass.out).toContain('matches the lock');
  }, 30_000); // spawns the CLI several times: slow on a busy 2-core machine

  test('a broken lock file and bad arguments are reported', () => {
    writeFileSync(file, '{ nope');
    expect(cli('--check', '--file', file)).toMatchObject({ code: 1, err: expect.stringContaining('not valid JSON') });
    expect(cli('--frobnicate', '--file', file).code).toBe(2);
    expect(cli('--check', '--file').code).toBe(2);
  }, 30_000); // spawns the CLI several times: slow on a busy 2-core machine
});
