// The watch mode's pass scheduler: a burst of changes is one pass, passes never overlap, and a pass
// covers only the files the changes named unless something else changed.
import { describe, expect, test } from 'bun:test';
import { passScheduler } from '../../core/services/sync-schedule.ts';

/** A scheduler whose passes are recorded; each pass waits for `release` when one is set. */
function recorder() {
  const passes: (string[] | 'all')[] = [];
  let active = 0;
  let overlapped = false;
  let release: (() => void) | undefined;
  let gate: Promise<void> | undefined;
  let ended = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  const settled = () => {
    ended++;
    for (const w of waiters.filter((w) => ended >= w.n)) w.resolve();
  };
  const scheduler = passScheduler({
    async pass(only) {
      active++;
      if (active > 1) overlapped = true;
      passes.push(only ? [...only].sort() : 'all');
      await gate;
      active--;
    },
    passed: () => settled(),
    failed: () => settled(),
  });
  return {
    scheduler,
    passes,
    overlapped: () => overlapped,
    hold() {
      gate = new Promise((r) => (release = r));
    },
    open() {
      gate = undefined;
      release?.();
    },
    /** Resolves once `n` passes in all have ended. */
    ended: (n: number) => new Promise<void>((resolve) => (ended >= n ? resolve() : waiters.push({ n, resolve }))),
  };
}

describe('passScheduler', () => {
  test('a burst of file changes is one pass over those files', async () => {
    const r = recorder();
    r.scheduler.changed(5, 'a.md');
    r.scheduler.changed(5, 'b.md');
    r.scheduler.changed(5, 'a.md');
    await r.ended(1);
    expect(r.passes).toEqual([['a.md', 'b.md']]);
    await r.scheduler.stop();
  });

  test('anything but a Markdown file makes the pass cover the whole folder; a database change, only what it names', async () => {
    const r = recorder();
    r.scheduler.changed(0, 'a.md');
    r.scheduler.changed(0, null);
    await r.ended(1);
    r.scheduler.changed(0, 'notes.txt');
    await r.ended(2);
    r.scheduler.changed(0);
    await r.ended(3);
    expect(r.passes).toEqual(['all', 'all', []]);
    await r.scheduler.stop();
  });

  test('a change during a pass runs one more pass after it, never two at once; after stop no pass runs', async () => {
    const r = recorder();
    r.hold();
    r.scheduler.changed(0, 'a.md');
    await new Promise((resolve) => setTimeout(resolve, 20));
    r.scheduler.changed(0, 'b.md');
    r.scheduler.changed(0, 'c.md');
    await new Promise((resolve) => setTimeout(resolve, 20));
    r.open();
    await r.ended(2);
    expect(r.passes).toEqual([['a.md'], ['b.md', 'c.md']]);
    expect(r.overlapped()).toBe(false);
    await r.scheduler.stop();
    r.scheduler.changed(0, 'd.md');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(r.passes).toHaveLength(2);
  });

  test('a failed pass is told, and the next change runs again', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    let settled: () => void = () => {};
    const s = passScheduler({
      async pass() {
        if (++calls === 1) throw new Error('database busy');
      },
      passed: () => settled(),
      failed: (e) => {
        errors.push(e);
        settled();
      },
    });
    let done = new Promise<void>((r) => (settled = r));
    s.changed(0, null);
    await done;
    done = new Promise<void>((r) => (settled = r));
    s.changed(0, null);
    await done;
    expect((errors[0] as Error).message).toBe('database busy');
    expect(calls).toBe(2);
    await s.stop();
  });
});
