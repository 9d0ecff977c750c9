// The one home of the text encodings behind ids, keys, secrets and cursors, and of the constant-time
// compare every secret check uses. Web-standard APIs only (btoa, atob, crypto.getRandomValues).

/** Crockford-style base32 (no i, l, o, u): the characters of every id (`bnd_…`) and API key id part. */
export const ID_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** `length` random characters of ID_ALPHABET (5 bits of entropy each). */
export function randomIdChars(length: number): string {
  let out = '';
  for (const b of crypto.getRandomValues(new Uint8Array(length))) out += ID_ALPHABET[b & 31];
  return out;
}

/** Bytes as unpadded base64url (RFC 4648 §5). */
export function b64url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Unpadded (or padded) base64url back to bytes; throws on characters outside the alphabet. */
export function fromB64url(s: string): Uint8Array<ArrayBuffer> {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** Strings compared without an early exit: the time depends on the lengths only, not on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}
