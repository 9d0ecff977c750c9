// The one home of the small text rules every listing and card uses to keep author text on one line.
// Two rules, named apart because they differ on purpose (a card's stored token counts depend on the
// first; changing either changes rendered text): oneLine keeps spacing inside a line, squashSpace
// folds every run of white space.

/** Author text on one line (every line break, CR and U+2028 included): a field can never start a line of its own. */
export function oneLine(s: string): string {
  return s.replace(/\s*[\n\r\v\f\u0085\u2028\u2029]\s*/g, ' ').trim();
}

/** Every run of white space (line breaks included) as one space, trimmed. */
export function squashSpace(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
