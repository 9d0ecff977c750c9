// The web diff page (and the edit-conflict page) spent ~3 s of CPU per GET on two
// 1 MB versions. The diff is now bounded by a step budget: exact and minimal on small inputs, and on
// big ones it stops at its cap and says so, having done at most the budget's work.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { diffLines } from 'diff';
import { DIFF_MAX_STEPS, lineDiff, lineDiffPaced, type LineDiff } from '../../core/web/line-diff.ts';
import { createWorkGate } from '../../core/web/work-gate.ts';
import { createBinding, updateBinding } from '../../core/services/bindings.ts';
import { webWorld, type Browser, type WebWorld } from './web-world.ts';

/** Rebuilds both sides from the runs: a diff that does not is wrong, whatever it counts. */
function sides(d: LineDiff): [string[], string[]] {
  const a: string[] = [];
  const b: string[] = [];
  for (const r of d.runs) {
    for (let j = r.start; j < r.start + r.count; j++) {
      if (r.kind !== 'add') a.push(d.a[j]!);
      if (r.kind === 'same') b.push(d.a[j]!);
      if (r.kind === 'add') b.push(d.b[j]!);
    }
  }
  return [a, b];
}

/** A deterministic pseudo-random generator (the cases are the same on every run). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const bigText = (lines: number, tag: string, rand: () => number) =>
  Array.from({ length: lines }, (_, i) => `${tag} line ${i} ${Math.floor(rand() * 1e9).toString(36)} ${'x'.repeat(30)}`).join('\n') + '\n';

describe('lineDiff', () => {
  test('on 500 small random pairs: both sides rebuilt exactly, and as few changes as a full Myers diff (jsdiff)', () => {
    const rand = rng(19);
    for (let i = 0; i < 500; i++) {
      const gen = () => Array.from({ length: Math.floor(rand() * 14) }, () => 'abcde'[Math.floor(rand() * 5)]!);
      const a = gen();
      const b = gen();
      const text = (l: string[]) => (l.length ? `${l.join('\n')}\n` : '');
      const d = lineDiff(text(a), text(b));
      expect(d.complete).toBe(true);
      expect(sides(d)).toEqual([a, b]);
      const reference = diffLines(text(a), text(b)).reduce((n, c) => n + (c.added || c.removed ? (c.count ?? 0) : 0), 0);
      expect(d.added + d.removed).toBe(reference);
    }
  });

  test('two unrelated 1 MB texts: stops at its cap, says so, and did at most the budget (+ one run) of work', () => {
    const rand = rng(7);
    const a = bigText(20_000, 'a', rand);
    const b = bigText(20_000, 'b', rand);
    expect(a.length).toBeGreaterThan(900_000);
    const d = lineDiff(a, b);
    expect(d.complete).toBe(false);
    expect(d.steps).toBeLessThanOrEqual(DIFF_MAX_STEPS + 20_000);
    expect(d.steps).toBeGreaterThan(DIFF_MAX_STEPS);
    // The coarse answer is still a true diff: the changed middle removed, then added.
    expect(d.removed).toBe(20_000);
    expect(d.added).toBe(20_000);
    expect(sides(d)).toEqual([a.trimEnd().split('\n'), b.trimEnd().split('\n')]);
  });

  test('a 1 MB text with a line changed every 50: bounded the same way; a smaller budget stops sooner', () => {
    const rand = rng(3);
    const a = bigText(20_000, 'doc', rand);
    const b = a
      .split('\n')
      .map((l, i) => (i % 50 === 0 && l ? `${l} edited` : l))
      .join('\n');
    const d = lineDiff(a, b);
    expect(d.steps).toBeLessThanOrEqual(DIFF_MAX_STEPS + 20_000);
    expect(sides(d)).toEqual([a.trimEnd().split('\n'), b.trimEnd().split('\n')]);
    const small = lineDiff(a, b, { maxSteps: 10_000 });
    expect(small.complete).toBe(false);
    expect(small.steps).toBeLessThanOrEqual(10_000 + 20_000);
  });

  test('a few changes in a 1 MB text: exact, found in few steps (output-sensitive)', () => {
    const rand = rng(5);
    const a = bigText(20_000, 'doc', rand);
    const lines = a.split('\n');
    lines[10] = 'changed ten';
    lines.splice(15_000, 0, 'inserted');
    lines.splice(18_000, 2);
    const d = lineDiff(a, lines.join('\n'));
    expect(d.complete).toBe(true);
    expect([d.added, d.removed]).toEqual([2, 3]);
    expect(d.steps).toBeLessThan(100_000);
  });
});

describe('pacing and the gate', () => {
  test('the paced diff hands the thread back every chunk of steps, and answers what the one-go diff answers', async () => {
    const rand = rng(7);
    const a = bigText(20_000, 'a', rand);
    const b = bigText(20_000, 'b', rand);
    let pauses = 0;
    const paced = await lineDiffPaced(a, b, async () => void pauses++, { chunkSteps: 50_000 });
    const whole = lineDiff(a, b);
    expect(paced.runs).toEqual(whole.runs);
    expect(paced.steps).toBe(whole.steps);
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(DIFF_MAX_STEPS / 50_000) - 1);
  });

  test('the gate runs one at a time, queues a bounded number, and turns the rest away without running them', async () => {
    const gate = createWorkGate(1, 2);
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    let ran = 0;
    const job = async () => {
      ran++;
      await hold;
      return ran;
    };
    const results = [gate.run(job), gate.run(job), gate.run(job), gate.run(job), gate.run(job)];
    await Bun.sleep(0);
    expect([gate.running, gate.waiting, ran]).toEqual([1, 2, 1]);
    expect(await results[3]).toBeUndefined();
    expect(await results[4]).toBeUndefined();
    release();
    expect((await Promise.all(results.slice(0, 3))).every((n) => typeof n === 'number')).toBe(true);
    expect([gate.running, gate.waiting, ran]).toEqual([0, 0, 3]);
  });
});

describe('the diff and conflict pages', () => {
  let w: WebWorld;
  let alice: Browser;
  let id: string;
  beforeAll(async () => {
    w = await webWorld();
    alice = await w.signIn('alice');
    const rand = rng(11);
    const made = await createBinding(
      w.deps,
      alice.caller,
      { name: 'Big', summary: 'Big.', content: bigText(17_000, 'a', rand) },
      { source: 'human', model: null },
    );
    id = made.bindingId;
    await updateBinding(w.deps, alice.caller, id, { content: bigText(17_000, 'b', rand) }, { source: 'human', model: null });
  });
  afterAll(() => w.close());

  test('two unrelated ~1 MB versions: the page says it is coarse, shows at most 2,000 lines, and /healthz answers beside four of them', async () => {
    const diffs = Array.from({ length: 4 }, () => alice.get(`/b/${id}/diff?from=1&to=2`));
    const health = w.anon('/healthz');
    const pages = await Promise.all(diffs);
    expect((await health).status).toBe(200);
    for (const page of pages) {
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('too different to show line by line in full');
      expect(html).toContain('17000 lines added, 17000 removed.');
      expect(html.match(/<div class="(?:add|del|same)">/g)!.length).toBe(2000);
      expect(html).toMatch(/32,?000 more lines are not shown\./);
    }
  });

  test('a small change in a big version: the change with three lines of context, the rest folded', async () => {
    const content = Array.from({ length: 1000 }, (_, i) => `Line ${i}.`).join('\n') + '\n';
    const made = await createBinding(w.deps, alice.caller, { name: 'Folded', summary: 'F.', content }, { source: 'human', model: null });
    await updateBinding(
      w.deps,
      alice.caller,
      made.bindingId,
      { content: content.replace('Line 500.', 'Line five hundred.') },
      { source: 'human', model: null },
    );
    const html = await (await alice.get(`/b/${made.bindingId}/diff?from=1&to=2`)).text();
    expect(html).toContain(
      '<div class="del"><span class="skip">removed: </span>Line 500.</div><div class="add"><span class="skip">added: </span>Line five hundred.</div>',
    );
    expect(html.match(/<div class="same">/g)!.length).toBe(6);
    expect(html).toContain('⋯ 497 unchanged lines');
  });
});
