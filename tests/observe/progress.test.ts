// CLI progress: redrawn on one stderr line on a terminal, silent off one, always one summary line.
import { describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProgress, formatDuration, progressLine } from '../../adapters/cli/progress.ts';
import { ROOT } from '../../support/procs.ts';

function sink(isTTY: boolean) {
  const out: string[] = [];
  return { out, isTTY, write: (t: string) => out.push(t) };
}

describe('progress', () => {
  test('on a TTY: one line redrawn in place with done/total, rate and time left, then the summary', () => {
    let t = 0;
    const err = sink(true);
    const out = sink(false);
    const p = createProgress({ unit: 'files', total: 4, sink: err, summarySink: out, now: () => t, everyMs: 0 });
    t = 1000;
    p.tick();
    t = 2000;
    p.tick();
    p.note('skipped x.md: empty');
    p.tick(2);
    p.done('imported 4 files');
    const text = err.out.join('');
    expect(text).not.toMatch(/\n(?!$)[^\r]*\d+\/4 files/); // progress never scrolls: only notes end lines
    expect(text).toContain('\r1/4 files (25%) · 1.0/s · 3s left\x1b[K');
    expect(text).toContain('\r2/4 files (50%) · 1.0/s · 2s left\x1b[K');
    expect(text).toContain('\r\x1b[Kskipped x.md: empty\n');
    expect(text).toContain('\r4/4 files (100%) · 2.0/s · 0s left');
    expect(text.endsWith('\r\x1b[K')).toBe(true);
    expect(out.out).toEqual(['imported 4 files\n']);
  });

  test('off a TTY: no progress at all, notes as plain lines, and only the summary on stdout', () => {
    const err = sink(false);
    const out = sink(false);
    const p = createProgress({ unit: 'files', total: 3, sink: err, summarySink: out });
    p.tick();
    p.note('skipped y.md: empty');
    p.tick(2);
    p.done('imported 3 files');
    expect(err.out).toEqual(['skipped y.md: empty\n']);
    expect(out.out).toEqual(['imported 3 files\n']);
  });

  test('a total learnt within one redraw interval is drawn at once', () => {
    const err = sink(true);
    const p = createProgress({ unit: 'files', sink: err, summarySink: sink(false), now: () => 0 });
    p.setTotal(5);
    expect(err.out.join('')).toContain('\r0/5 files (0%)');
  });

  test('line and duration formats', () => {
    expect(progressLine(0, 10, 'rows', 0)).toBe('0/10 rows (0%) · 0.0/s · ? left');
    expect(progressLine(50, undefined, 'rows', 2)).toBe('50 rows · 25/s');
    expect(formatDuration(65)).toBe('1m05s');
    expect(formatDuration(3 * 3600 + 120)).toBe('3h02m');
  });

  test('a real pseudo-terminal (script -qc): bindery import redraws progress; piped, it prints only the summary', () => {
    const script = spawnSync('which', ['script']).status === 0;
    if (!script) return; // util-linux `script` missing: the injected-TTY tests above still cover both modes
    const dir = mkdtempSync(join(tmpdir(), 'bindery-progress-'));
    mkdirSync(join(dir, 'docs'));
    for (let i = 0; i < 5; i++) writeFileSync(join(dir, 'docs', `n${i}.md`), `# Note ${i}\n\nbody ${i}\n`);
    const env = { ...process.env, BINDERY_DB_URL: `file:${join(dir, 'b.db')}`, BINDERY_USER: 'tty' };
    const cmd = `bun adapters/cli.ts import ${join(dir, 'docs')}`;
    const tty = spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd: ROOT, env, encoding: 'utf8' });
    expect(tty.status).toBe(0);
    expect(tty.stdout).toMatch(/\r\d\/5 files \(\d+%\)/);
    expect(tty.stdout).toContain('5 created');
    const piped = spawnSync('bun', ['adapters/cli.ts', 'import', join(dir, 'docs')], { cwd: ROOT, env, encoding: 'utf8' });
    expect(piped.status).toBe(0);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).toBe(`imported ${join(dir, 'docs')} into @tty: 0 created, 0 updated, 5 unchanged, 0 skipped\n`);
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);
});
