// The one home of the small text rules every listing and card uses to keep author text on one line.
// Two rules, named apart because they differ on purpose (a card's stored token counts depend on the
// first; changing either changes rendered text): oneLine keeps spacing inside a line, squashSpace
// folds every run of white space.

/**
 * Author text on one line (every line break, CR and U+2028 included): a field can never start a line of
 * its own. A line break with the white space on both sides of it becomes one space. Read token by token
 * in one pass, as the pattern it replaces read it (white space, a break, white space), which re-read a
 * run of blanks from each of its characters: 80,000 blanks took 4.5 s. U+0085 breaks a line but is not
 * white space to `\s`, so a run before it and the run after it go with it.
 */
export function oneLine(s: string): string {
  const parts = s.split(/(\s+|\u0085)/);
  let out = '';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (i % 2 === 0) {
      out += part;
      continue;
    }
    // A run of white space before a U+0085 goes with it, and so does the run after it.
    const next = parts[i + 2];
    if (part !== NEL && parts[i + 1] === '' && next === NEL) {
      out += ' ';
      i += parts[i + 3] === '' && parts[i + 4] !== undefined && parts[i + 4] !== NEL ? 4 : 2;
    } else if (part === NEL) {
      out += ' ';
      if (parts[i + 1] === '' && parts[i + 2] !== undefined && parts[i + 2] !== NEL) i += 2;
    } else out += BREAK.test(part) ? ' ' : part;
  }
  return out.trim();
}
const NEL = '\u0085';
const BREAK = /[\n\r\v\f\u2028\u2029]/;

/** Every run of white space (line breaks included) as one space, trimmed. */
export function squashSpace(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * Text without HTML comments, found by position in one pass (a pattern re-read the rest of the text from
 * every "<!--" that had no end). An unclosed comment stays as text; each comment leaves a space.
 */
export function withoutComments(text: string): string {
  let out = '';
  let at = 0;
  for (let open = text.indexOf('<!--'); open !== -1; open = text.indexOf('<!--', at)) {
    const close = text.indexOf('-->', open + 4);
    if (close === -1) break;
    out += `${text.slice(at, open)} `;
    at = close + 3;
  }
  return out + text.slice(at);
}
