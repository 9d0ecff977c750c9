// A line diff whose cost is bounded by a step budget, whatever the inputs (jsdiff spent
// ~3 s of CPU per GET on two 1 MB versions before giving up, and four such GETs stalled /healthz).
// Myers' O((N+M)·D) algorithm is output-sensitive: after the common head and tail are cut off (linear),
// its cost grows with the number of differences D. Every diagonal it visits and every line it compares
// is a step; past `maxSteps` it stops and answers a coarse result instead (the changed middle as one
// removed block and one added block), marked incomplete. Pure: no I/O, no clock.

/** A run of lines: `same` lines of both, `del` lines of a only, `add` lines of b only. */
export interface DiffRun {
  kind: 'same' | 'del' | 'add';
  /** Index of the run's first line in a (same, del) or b (add). */
  start: number;
  count: number;
}

export interface LineDiff {
  runs: DiffRun[];
  /** The lines of each side (the runs index them). */
  a: string[];
  b: string[];
  added: number;
  removed: number;
  /** False when the budget ran out: `runs` is then the coarse head / removed / added / tail form. */
  complete: boolean;
  /** Steps spent (diagonals visited, lines compared, trace entries kept); at most `maxSteps` plus one diagonal's run of equal lines. */
  steps: number;
}

/** The default budget: a few milliseconds of CPU on any input (about 1,400 differing lines in full). */
export const DIFF_MAX_STEPS = 1_000_000;

const linesOf = (text: string): string[] => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));

/** Steps between two pauses of `lineDiffPaced` (well under a millisecond of CPU). */
export const DIFF_CHUNK_STEPS = 25_000;
/** Lines interned between two pauses. */
const INTERN_CHUNK = 4_000;

export interface DiffOptions {
  maxSteps?: number;
  /** Steps between pauses (`lineDiffPaced` only). */
  chunkSteps?: number;
}

/** Diffs two texts line by line within `maxSteps` (see the module header), in one go. */
export function lineDiff(aText: string, bText: string, opts: DiffOptions = {}): LineDiff {
  const run = diffSteps(aText, bText, opts);
  for (;;) {
    const next = run.next();
    if (next.done) return next.value;
  }
}

/**
 * The same diff, handing the thread back every `chunkSteps` steps (`pause` resolves on a later turn of
 * the event loop), so a server keeps answering other requests while one diff runs.
 */
export async function lineDiffPaced(aText: string, bText: string, pause: () => Promise<void>, opts: DiffOptions = {}): Promise<LineDiff> {
  const run = diffSteps(aText, bText, opts);
  for (;;) {
    const next = run.next();
    if (next.done) return next.value;
    await pause();
  }
}

function* diffSteps(aText: string, bText: string, opts: DiffOptions): Generator<void, LineDiff> {
  const maxSteps = opts.maxSteps ?? DIFF_MAX_STEPS;
  const chunk = opts.chunkSteps ?? DIFF_CHUNK_STEPS;
  const a = linesOf(aText);
  const b = linesOf(bText);
  // Lines as small integers: the inner loop compares numbers, not strings.
  const ids = new Map<string, number>();
  const intern = (l: string) => {
    let id = ids.get(l);
    if (id === undefined) ids.set(l, (id = ids.size));
    return id;
  };
  // Interning is linear but not free on a megabyte: it pauses too, every INTERN_CHUNK lines.
  const A = new Int32Array(a.length);
  const B = new Int32Array(b.length);
  for (const [lines, ints] of [
    [a, A],
    [b, B],
  ] as const) {
    for (let i = 0; i < lines.length; i++) {
      ints[i] = intern(lines[i]!);
      if (i % INTERN_CHUNK === INTERN_CHUNK - 1) yield;
    }
  }
  let head = 0;
  while (head < A.length && head < B.length && A[head] === B[head]) head++;
  let tail = 0;
  while (tail < A.length - head && tail < B.length - head && A[A.length - 1 - tail] === B[B.length - 1 - tail]) tail++;
  const middle = yield* myers(A.subarray(head, A.length - tail), B.subarray(head, B.length - tail), maxSteps, chunk);
  const runs: DiffRun[] = [];
  const push = (kind: DiffRun['kind'], start: number, count: number) => {
    if (count === 0) return;
    const last = runs.at(-1);
    if (last && last.kind === kind && last.start + last.count === start) last.count += count;
    else runs.push({ kind, start, count });
  };
  push('same', 0, head);
  if (middle.edits) for (const e of middle.edits) push(e.kind, e.start + head, e.count);
  else {
    push('del', head, A.length - head - tail);
    push('add', head, B.length - head - tail);
  }
  push('same', A.length - tail, tail);
  const sum = (kind: DiffRun['kind']) => runs.reduce((n, r) => n + (r.kind === kind ? r.count : 0), 0);
  return { runs, a, b, added: sum('add'), removed: sum('del'), complete: !!middle.edits, steps: middle.steps };
}

/** Myers' greedy forward search with a trace for the way back; undefined edits when over budget. Yields every `chunk` steps. */
function* myers(A: Int32Array, B: Int32Array, maxSteps: number, chunk: number): Generator<void, { edits?: DiffRun[]; steps: number }> {
  const n = A.length;
  const m = B.length;
  if (n === 0 || m === 0) return { edits: [{ kind: n ? 'del' : 'add', start: 0, count: n || m }], steps: 0 };
  // Visiting d+1 diagonals per round, the budget allows at most about sqrt(2·maxSteps) rounds.
  const dMax = Math.min(n + m, Math.ceil(Math.sqrt(2 * maxSteps)) + 2);
  const offset = dMax + 1;
  const v = new Int32Array(2 * dMax + 3);
  const trace: Int32Array[] = [];
  let steps = 0;
  let pauseAt = chunk;
  for (let d = 0; d <= dMax; d++) {
    // V before round d, for k in [-d-1, d+1].
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    steps += 2 * d + 3;
    for (let k = -d; k <= d; k += 2) {
      steps++;
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && A[x] === B[y]) {
        x++;
        y++;
        steps++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return { edits: backtrack(trace, n, m), steps };
      if (steps > maxSteps) return { steps };
      if (steps >= pauseAt) {
        pauseAt = steps + chunk;
        yield;
      }
    }
  }
  return { steps };
}

/** Walks the trace back from (n, m), collecting the edit script in order. */
function backtrack(trace: Int32Array[], n: number, m: number): DiffRun[] {
  const out: DiffRun[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d]!;
    const at = (k: number) => v[k + d + 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      out.push({ kind: 'same', start: x, count: 1 });
    }
    if (d > 0) out.push(x === prevX ? { kind: 'add', start: y - 1, count: 1 } : { kind: 'del', start: x - 1, count: 1 });
    x = prevX;
    y = prevY;
  }
  return out.reverse();
}
