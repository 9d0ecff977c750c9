import { html, num, type Html } from '../html.ts';
import type { LineDiff } from '../line-diff.ts';

/** Unchanged lines shown around each change; longer unchanged stretches fold into one line. */
const CONTEXT_LINES = 3;
/** Lines a diff shows at most: the page stays small whatever the versions (the counts stay exact). */
const MAX_SHOWN_LINES = 2000;

/**
 * A computed line diff as HTML: removed, added and, around each change, unchanged lines. When the
 * budget ran out the changed middle is shown as removed then added, with a note; either way the page
 * shows at most MAX_SHOWN_LINES lines.
 */
export function diffView(d: LineDiff): Html {
  const lines: Html[] = [];
  const line = (cls: string, label: string, text: string) => html`<div class="${cls}"><span class="skip">${label}: </span>${text}</div>`;
  let hidden = 0;
  const show = (item: Html) => (lines.length < MAX_SHOWN_LINES ? lines.push(item) : hidden++);
  d.runs.forEach((run, i) => {
    if (run.kind !== 'same') {
      const side = run.kind === 'add' ? d.b : d.a;
      for (let j = run.start; j < run.start + run.count; j++) {
        if (lines.length >= MAX_SHOWN_LINES) {
          hidden += run.start + run.count - j;
          break;
        }
        show(run.kind === 'add' ? line('add', 'added', side[j]!) : line('del', 'removed', side[j]!));
      }
      return;
    }
    const before = i > 0 ? CONTEXT_LINES : 0;
    const after = i < d.runs.length - 1 ? CONTEXT_LINES : 0;
    if (run.count <= before + after + 1) {
      for (let j = run.start; j < run.start + run.count; j++) show(line('same', 'unchanged', d.a[j]!));
      return;
    }
    for (let j = run.start; j < run.start + before; j++) show(line('same', 'unchanged', d.a[j]!));
    show(html`<div class="fold meta">⋯ ${num(run.count - before - after)} unchanged lines</div>`);
    for (let j = run.start + run.count - after; j < run.start + run.count; j++) show(line('same', 'unchanged', d.a[j]!));
  });
  const note = d.complete
    ? ''
    : html`<p class="note">These versions are too different to show line by line in full: the changed part is shown as removed, then added.</p>`;
  const more = hidden ? html`<p class="note">${num(hidden)} more lines are not shown.</p>` : '';
  return html`${note}<p class="meta">${d.added} line${d.added === 1 ? '' : 's'} added, ${d.removed} removed.</p><div class="diff" role="region" aria-label="differences">${lines}</div>${more}`;
}
