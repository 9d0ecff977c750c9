import { oneLine } from '../budget/card-cut.ts';
import { HAS_TEXT } from './score.ts';
import { withoutComments } from '../text.ts';

// The units a passage is made of (sentences, list items, table rows, code lines) and what a question
// asks of them (code, a value). Shared by the excerpt and by the choice of section. Pure: no I/O.

/**
 * True when a question asks for a value (a default, a limit, a time, a date, an amount, a version):
 * then a sentence with a figure in it answers rather than its neighbour that only names the thing.
 */
export function asksForValue(query: string): boolean {
  return VALUE_WORDS.test(query);
}
const VALUE_WORDS =
  /\b(?:defaults?|max(?:imum)?|min(?:imum)?|minimal|limits?|how (?:many|much|long|often|old|big|large|fast|soon)|when|what time|times?|date|deadline|until|starts?|ends?|version|oldest|newest|latest|earliest|size|number|count|timeouts?|duration|cost|price|amount|percent(?:age)?|rate|threshold|days?|hours?|minutes?|seconds?|weeks?|months?|years?)\b/i;

/** A figure other than a list item's number. */
export function holdsValue(text: string): boolean {
  return /\d/.test(text.replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+/, ''));
}

/**
 * What a figure in a unit counts for, when the question asks for a value (a query word counts 10).
 * Replaying models' first searches (tuning half), the first call showed the answer 82.2 → 89.1 %
 * (third-party) with any bonus from 3 to 8. At 10 (a figure counts as much as a query word), with
 * 40 more questions' first searches, private went 89.5 → 90.1 % ("core hours reachable working day":
 * the sentence giving the hours, not its neighbour naming core hours twice) and nothing was lost.
 */
export const VALUE_BONUS = 10;

/** True when a question asks about code: backticks, calls, dotted or snake_case names, flags, camelCase. */
export function asksForCode(query: string): boolean {
  return /`|\w\(|[A-Za-z_]\.[A-Za-z_]|\w_\w|(?:^|\s)--?[A-Za-z]|[{}<>=;$]|\b[a-z]+[A-Z]\w*/.test(query);
}

/**
 * A sentence, list item or table row on one line, and whether it is code (inside a fence or indented
 * as code). A table row carries its table's header row as `context`: "| 4.x | ≥12.17.0 |" says
 * nothing until "| fast-check | node |" says what its cells are.
 */
export interface Unit {
  text: string;
  code: boolean;
  context?: string;
  /** The sentence before, when this one opens by pointing back at it ("This is limited to `100_000` by default."). */
  before?: string;
}

const TABLE_ROW = /^ {0,3}\|/;
/**
 * HTML tags a README writes prose in (logos, badges, centred titles, tables of options) and comments:
 * left out of prose units, so `<td>` or `<br>` is never quoted and a table row is read as its cells. Only
 * these names, so a type such as `Map<string, number>` in prose stays as written.
 */
const HTML_TAG =
  /<\/?(?:a|abbr|b|big|blockquote|br|center|code|dd|details|div|dl|dt|em|figcaption|figure|font|h[1-6]|hr|i|img|kbd|li|ol|p|picture|pre|s|samp|small|source|span|strong|sub|summary|sup|table|tbody|td|tfoot|th|thead|tr|u|ul|video)\b[^<>]*>/gi;

const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s/;
const ITEM_CHARS = 280;

/** A table's rule line: only pipes, colons, dashes and spaces, with a dash (tested with `isRule`: one pass). */
const TABLE_RULE = /^ {0,3}\|?[\s:|-]*$/;
const isRule = (l: string) => TABLE_RULE.test(l) && l.includes('-');

/** Sentences, list items and table rows of a body, each on one line with runs of white space folded; code blocks line by line. */
export function units(body: string): Unit[] {
  const out: Unit[] = [];
  let prose: string[] = [];
  let header: string | undefined;
  const flush = () => {
    for (const block of prose.join('\n').split(/\n\s*\n|\n(?=\s*(?:[-*+>|]|\d{1,9}[.)]|#{1,6})\s)|\n(?=\s*<tr\b)/i)) {
      // A short list item (or HTML table row) stays whole: "`minTimeout`: … first retry. Default is
      // `1000`." names its option in one sentence and gives its value in the next.
      const text = withoutComments(block).replace(HTML_TAG, ' ');
      if ((LIST_ITEM.test(text) || /^\s*<tr\b/i.test(block)) && fold(text).length <= ITEM_CHARS)
        out.push({ text: fold(text), code: false });
      else {
        let prev: string | undefined;
        for (const u of text.split(SENTENCE_END)) {
          const t = fold(u);
          out.push(prev !== undefined && ANAPHOR.test(t) ? { text: t, code: false, before: prev } : { text: t, code: false });
          prev = t;
        }
      }
    }
    prose = [];
  };
  let fence: string | undefined;
  for (const l of body.split('\n')) {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(l);
    if (fence !== undefined) {
      if (f && f[1]!.startsWith(fence)) fence = undefined;
      else out.push({ text: fold(l, false), code: true });
    } else if (f) {
      flush();
      header = undefined;
      fence = f[1]!;
    } else if (TABLE_ROW.test(l)) {
      flush();
      if (isRule(l)) continue;
      if (header === undefined) {
        header = fold(l);
        out.push({ text: header, code: false });
      } else out.push({ text: fold(l), code: false, context: header });
    } else {
      header = undefined;
      prose.push(l);
    }
  }
  flush();
  return out.filter((u) => HAS_TEXT.test(u.text));
}

/** Where a sentence ends: after ".", "!" or "?" (and their full-width forms), not after "e.g." or "i.e.". */
const SENTENCE_END = /(?<!\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|resp)\.)(?<=[.!?。！？])\s+/i;

/** A sentence opening with a word that points back at the one before. */
const ANAPHOR = /^(?:This|These|That|Those|It|Its|They|Their|Such)\b/;

/** A unit as it is scored and quoted: a table row after its header row. */
export const withContext = (u: Unit) => (u.context ? `${u.context} ${u.text}` : u.text);

/**
 * What a query word in the sentence a unit points back at counts for, when the unit lacks it but holds
 * a word of its own: "The `options` object can also provide a `maxLength` value to cap the total
 * number of characters across all expansions. This is limited to `4_000_000` by default." answers
 * "max total length characters default" in its second sentence. Replaying 1,456 models' first
 * searches: 2 more first calls show the answer (brace-expansion maxLength, on-finished's CONNECT),
 * none fewer, at 0.5 or 1; counted for a unit holding only heading words it lost one.
 */
export const BEFORE_SHARE = 0.5;

/**
 * Text as read, without Markdown link targets and bare URLs (for scoring only). A target stops at a
 * `]` too, so a run of "](" with no ")" is read once, not once from each "](" (that was quadratic).
 */
export const withoutTargets = (u: string) => u.replace(/\]\([^)\s\]]*\)/g, ']').replace(/https?:\/\/\S+/g, ' ');

/** A unit on one line, runs of white space folded; prose without its links' web and in-page targets. */
const fold = (u: string, prose = true) => (prose ? withoutWebTargets(oneLine(u)) : oneLine(u)).replace(/\s+/g, ' ').trim();

/**
 * A prose unit is quoted with its links' text and without their targets when these are web addresses
 * or anchors in the page: "[`['node', 'import']`](https://nodejs.org/api/esm.html#:~:text=…)" was cut
 * before its second half, glued to a 60-token address. A relative path stays (it may be the answer:
 * "[Using a remote JWKS](jwks/remote/functions/createRemoteJWKSet.md)"). Replaying 1,516 models'
 * first searches: 2 more first calls show the answer (resolve-pkg-maps' default conditions, ip-address's
 * NAT64 prefix), none fewer; dropping every target lost the JWKS one.
 */
const withoutWebTargets = (u: string) => u.replace(/\]\((?:https?:\/\/|#)[^)\s\]]*\)/g, ']');
