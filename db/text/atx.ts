// ATX headings (`## Title ##`) read by position, in one pass. A leaf: db/ (the search index's headings
// column) and core/ (sections) both read headings with it, so they cannot disagree.

const OPEN = /^ {0,3}(#{1,6})(?=[ \t]|$)/;
const blank = (c: string | undefined) => c === ' ' || c === '\t';

/**
 * An ATX heading line's level and text, without its marks, closing run of # and surrounding blanks
 * (spaces and tabs); undefined for a line that is not one. `spaced` says whether a blank follows the
 * opening marks (a bare "##" is an empty heading). The pattern this replaces
 * (`[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$`) re-read a run of blanks from each of its characters: a heading
 * line of a million blanks took about twenty minutes.
 */
export function atxHeading(line: string): { level: number; text: string; spaced: boolean } | undefined {
  const open = OPEN.exec(line);
  if (!open) return undefined;
  const rest = line.slice(open[0].length);
  // A heading is one line: a line break inside it (\r, \u2028…) makes it none.
  if (/[\r\n\u2028\u2029]/.test(rest)) return undefined;
  let from = 0;
  while (blank(rest[from])) from++;
  let end = rest.length;
  while (end > from && blank(rest[end - 1])) end--;
  // A closing run of # counts only after a blank inside the text ("# C#" keeps its #).
  let hashes = end;
  while (hashes > from && rest[hashes - 1] === '#') hashes--;
  if (hashes < end && hashes > from && blank(rest[hashes - 1])) {
    end = hashes;
    while (end > from && blank(rest[end - 1])) end--;
  }
  return { level: open[1]!.length, text: rest.slice(from, end), spaced: rest.length > 0 };
}
