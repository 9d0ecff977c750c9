/**
 * The one way Bindery shortens text: `text` whole when it has at most `max` UTF-16
 * units, else cut so that the result, its closing "…" included, has at most `max`. The cut never
 * splits a surrogate pair, so a clipped value is always well-formed when the input is (a lone
 * surrogate is stored as U+FFFD by libSQL and would then not be the text that was counted).
 * `word`: back up to the last space when one lies in the second half of the kept text, and drop the
 * space(s) before the "…".
 */
export function clip(text: string, max: number, opts: { word?: boolean } = {}): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, Math.max(0, max - 1));
  if (cut && isHighSurrogate(cut.charCodeAt(cut.length - 1))) cut = cut.slice(0, -1);
  if (opts.word) {
    const space = cut.search(/\s\S*$/);
    if (space > max * 0.5) cut = cut.slice(0, space);
    cut = cut.trimEnd();
  }
  return `${cut}…`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
