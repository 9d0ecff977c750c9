// Reads js-tiktoken's compressed rank files into a RankTable (./rank-table.ts) in one pass over the
// text: each token's base64 is decoded straight into the byte pool and hashed on the way, with no
// string made per token (o200k_base has 200,000 of them).
import { FNV_OFFSET, FNV_PRIME, MAX_RANK, RankTable } from './rank-table.ts';

const BASE64_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Each base64 digit's value by char code (-1: not a digit). */
const BASE64_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) BASE64_VALUE[BASE64_DIGITS.charCodeAt(i)] = i;
const PAD = 0x3d; // '='
const SPACE = 0x20;
const BANG = 0x21;

/** One row of the file: its line, the rank of its first token, how many tokens, the first one's index in file order. */
interface Row {
  line: number;
  offset: number;
  count: number;
  first: number;
}

/** Where the decoded tokens go: the byte pool, each token's start and hash, in file order. */
interface Sink {
  pool: Uint8Array;
  written: number;
  starts: Uint32Array;
  hashes: Int32Array;
}

/**
 * Parses js-tiktoken's compressed rank table ("! <offset> <base64 token> …" per line, token i of a
 * row ranked offset + i; all rows' ranks together run 0..n-1). Anything else throws, naming the row
 * and token: a table read wrongly would not crash later, it would make every count silently wrong (a
 * missing single byte, for one, leaves the merge with parts that are no token).
 */
export function loadRanks(bpeRanks: string): RankTable {
  const fail = (why: string): never => {
    throw new Error(`unexpected tokenizer rank table: ${why}`);
  };
  const text = bpeRanks;
  // Upper bounds: a token is at least 4 base64 digits and a space; 4 digits carry at most 3 bytes.
  const capacity = Math.ceil(text.length / 5) + 2;
  const sink: Sink = {
    pool: new Uint8Array(Math.ceil((text.length * 3) / 4)),
    written: 0,
    starts: new Uint32Array(capacity),
    hashes: new Int32Array(capacity),
  };
  const rows: Row[] = [];
  let tokens = 0;
  let line = 0;
  for (let lineStart = 0; lineStart <= text.length; ) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    line++;
    const where = `row ${line}`;
    if (lineEnd > lineStart) {
      if (text.charCodeAt(lineStart) !== BANG || (lineEnd > lineStart + 1 && text.charCodeAt(lineStart + 1) !== SPACE))
        fail(`${where} does not start with "!"`);
      const offsetEnd = text.indexOf(' ', lineStart + 2);
      const offset = offsetEnd > lineStart + 2 && offsetEnd < lineEnd ? text.slice(lineStart + 2, offsetEnd) : '';
      if (!/^\d+$/.test(offset)) fail(`${where} has no whole-number offset followed by tokens`);
      const row: Row = { line, offset: Number.parseInt(offset, 10), count: 0, first: tokens };
      for (let from = offsetEnd + 1; from <= lineEnd; ) {
        row.count++;
        const to = decodeToken(text, from, lineEnd, sink, tokens++);
        if (to < 0) {
          const end = text.indexOf(' ', from);
          const token = text.slice(from, end < 0 || end > lineEnd ? lineEnd : end);
          fail(`${where}, token ${row.count} is not base64: ${JSON.stringify(token.slice(0, 40))}`);
        }
        from = to + 1;
      }
      rows.push(row);
    }
    lineStart = lineEnd + 1;
  }
  sink.starts[tokens] = sink.written;
  // Rank spans in order: a rank given twice is an overlap, a missing one a gap.
  const spans = [...rows].sort((a, b) => a.offset - b.offset);
  for (let i = 1; i < spans.length; i++) {
    const [a, b] = [spans[i - 1]!, spans[i]!];
    if (b.offset < a.offset + a.count) fail(`row ${Math.max(a.line, b.line)}, rank ${b.offset} is given twice`);
  }
  if (tokens === 0) fail('it is empty');
  const last = spans[spans.length - 1]!;
  if (last.offset + last.count > MAX_RANK)
    fail(`rank ${last.offset + last.count - 1} is beyond ${MAX_RANK - 1} (the heap merge packs ranks into keys)`);
  let expected = 0;
  for (const s of spans) {
    if (s.offset !== expected) fail(`ranks ${expected}–${s.offset - 1} have no token (row ${s.line} starts at rank ${s.offset})`);
    expected += s.count;
  }
  const table = inRankOrder(sink, rows, spans, tokens);
  if (table.duplicate >= 0) {
    const row = spans.find((s) => table.duplicate < s.offset + s.count)!;
    fail(`row ${row.line}, token ${table.duplicate - row.offset + 1} is given twice`);
  }
  for (let b = 0; b < 256; b++) {
    if (table.rank(String.fromCharCode(b)) < 0) fail(`the single byte 0x${b.toString(16).padStart(2, '0')} has no rank`);
  }
  return table;
}

/**
 * Decodes token number `index`, whose base64 starts at `from` and ends at the next space or at
 * `lineEnd`, into the sink (bytes, start, FNV-1a hash) and returns where its text ends; -1 when it is
 * not strict base64 (whole quads, padding only at its end, no other char).
 */
function decodeToken(text: string, from: number, lineEnd: number, sink: Sink, index: number): number {
  const pool = sink.pool;
  let at = sink.written;
  let h = FNV_OFFSET;
  sink.starts[index] = at;
  for (let i = from; i + 4 <= lineEnd; ) {
    const c0 = text.charCodeAt(i);
    const c1 = text.charCodeAt(i + 1);
    const c2 = text.charCodeAt(i + 2);
    const c3 = text.charCodeAt(i + 3);
    i += 4;
    const last = i === lineEnd || text.charCodeAt(i) === SPACE;
    const a = c0 < 128 ? BASE64_VALUE[c0]! : -1;
    const b = c1 < 128 ? BASE64_VALUE[c1]! : -1;
    const c = c2 < 128 ? BASE64_VALUE[c2]! : -1;
    const d = c3 < 128 ? BASE64_VALUE[c3]! : -1;
    if (a < 0 || b < 0) return -1;
    let byte = (a << 2) | (b >> 4);
    pool[at++] = byte;
    h = Math.imul(h ^ byte, FNV_PRIME);
    if (c < 0) {
      if (!(last && c2 === PAD && c3 === PAD)) return -1;
    } else {
      byte = ((b & 15) << 4) | (c >> 2);
      pool[at++] = byte;
      h = Math.imul(h ^ byte, FNV_PRIME);
      if (d < 0) {
        if (!(last && c3 === PAD)) return -1;
      } else {
        byte = ((c & 3) << 6) | d;
        pool[at++] = byte;
        h = Math.imul(h ^ byte, FNV_PRIME);
      }
    }
    if (last) {
      sink.written = at;
      sink.hashes[index] = h;
      return i;
    }
  }
  return -1;
}

/** The table, with the tokens laid out in rank order (rows given out of order are copied into place). */
function inRankOrder(sink: Sink, rows: readonly Row[], spans: readonly Row[], tokens: number): RankTable {
  const { pool, starts, hashes, written } = sink;
  if (rows.every((r, i) => i === 0 || r.offset > rows[i - 1]!.offset))
    return RankTable.build(pool.slice(0, written), starts.slice(0, tokens + 1), hashes);
  const ordered = new Uint8Array(written);
  const orderedStarts = new Uint32Array(tokens + 1);
  const orderedHashes = new Int32Array(tokens);
  let at = 0;
  for (const s of spans) {
    for (let i = s.first; i < s.first + s.count; i++) {
      const rank = s.offset + i - s.first;
      orderedStarts[rank] = at;
      orderedHashes[rank] = hashes[i]!;
      ordered.set(pool.subarray(starts[i]!, starts[i + 1]!), at);
      at += starts[i + 1]! - starts[i]!;
    }
  }
  orderedStarts[tokens] = at;
  return RankTable.build(ordered, orderedStarts, orderedHashes);
}
