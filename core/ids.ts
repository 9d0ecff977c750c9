import { b64url, randomIdChars } from './encoding.ts';

/**
 * The pattern (unanchored regex source) of an id of one kind as every face accepts it: the tools'
 * schemas and the web app's routes. Ids are made by newId (16 characters of the id alphabet); the
 * pattern admits any lowercase letter or digit there, as the tools always have.
 */
export function idPattern(prefix: string): string {
  return `${prefix}_[0-9a-z]{16}`;
}

/**
 * How many id characters a search's passage line shows (`bnd_` and these): the full id costs a model
 * 11–15 tokens a hit, its first 8 characters 5–9. They are 40 random bits, so two documents one
 * caller can find share them about once in a trillion pairs; a read that meets two says so.
 */
export const SHORT_ID_CHARS = 8;

/** An id as a passage line shows it: its kind prefix and its first SHORT_ID_CHARS characters. */
export function shortId(id: string): string {
  return id.slice(0, id.indexOf('_') + 1 + SHORT_ID_CHARS);
}

/** The pattern (unanchored) of an id or of its first SHORT_ID_CHARS or more characters. */
export function idRefPattern(prefix: string): string {
  return `${prefix}_[0-9a-z]{${SHORT_ID_CHARS},16}`;
}

/** A new random id with its kind prefix (`bnd_…`, `spc_…`), 16 base32 characters of entropy. */
export function newId(prefix: string): string {
  return `${prefix}_${randomIdChars(16)}`;
}

/**
 * A random marker (12 decimal digits, about 40 bits) that does not occur in `text`. It fences stored
 * text wherever it is shown, so the text cannot close its own fence: it was chosen after the text was
 * fixed. Digits, not hex: o200k and cl100k split them into four 3-digit tokens whatever they are, so a
 * fenced block costs the same for every fence and packing never depends on the draw (a hex fence costs
 * 5 to 12 tokens). Fences backfilled as hex render just as well.
 */
export function newFence(text: string): string {
  for (;;) {
    const [a, b] = crypto.getRandomValues(new Uint32Array(2));
    const fence = `${String(a! % 1_000_000).padStart(6, '0')}${String(b! % 1_000_000).padStart(6, '0')}`;
    if (!text.includes(fence)) return fence;
  }
}

/** A URL slug from a name: lowercase ASCII letters, digits and single dashes, at most 60 characters. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  return slug || 'untitled';
}

/** SHA-256 of a string as lowercase hex (Web Crypto, so it runs on every runtime). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The secret of a public link: 192 random bits as 32 base64url characters (stored only as its SHA-256). */
export function newLinkSecret(): string {
  return b64url(crypto.getRandomValues(new Uint8Array(24)));
}

/** True for a string shaped like a link secret; anything else is never hashed or looked up. */
export function isLinkSecret(value: string): boolean {
  return /^[A-Za-z0-9_-]{32}$/.test(value);
}
