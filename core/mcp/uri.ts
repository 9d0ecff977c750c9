import type { Tier } from '../budget/tier.ts';
import { clip } from '../clip.ts';

export const URI_SCHEME = 'bindery:';

/**
 * The resource template (RFC 6570 level 3: form-style query expansion). Every query variable is
 * optional and may come in any order; `parseBindingUri` reads them (the SDK's UriTemplate.match wants
 * all of them, in this order, so it is used for expansion only).
 */
export const BINDING_URI_TEMPLATE = 'bindery://{space}/{binding}{?version,tier,page}';

/** What a `bindery://space/binding?version=&tier=&page=` URI names. */
export interface BindingUri {
  space: string;
  binding: string;
  version?: number;
  tier: Tier;
  /** 1-based page of a tier-2 (or tier-1.5) read that passes the response cap. */
  page: number;
}

/** Why a URI is not a binding URI: the variable and the rule, as every Bindery error names them. */
export class UriError extends Error {}

const TIERS: Record<string, Tier> = { '1': '1', '1.5': '1.5', '2': '2' };
const QUERY_KEYS = new Set(['version', 'tier', 'page']);

function positive(name: string, raw: string | null): number | undefined {
  if (raw === null) return undefined;
  if (!/^[1-9][0-9]{0,8}$/.test(raw)) throw new UriError(`${name}: must be a whole number from 1 (got "${clip(raw, 20)}")`);
  return Number(raw);
}

/** Parses a binding URI; a URI of another shape is a UriError naming the part and the rule. */
export function parseBindingUri(uri: string): BindingUri {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new UriError('uri: must look like bindery://<space>/<binding>');
  }
  const segments = url.pathname.split('/').slice(1);
  if (url.protocol !== URI_SCHEME || !url.hostname || segments.length !== 1 || !segments[0] || url.username || url.port || url.hash) {
    throw new UriError('uri: must look like bindery://<space>/<binding>[?version=N&tier=1|1.5|2&page=N]');
  }
  for (const key of url.searchParams.keys()) {
    if (!QUERY_KEYS.has(key)) throw new UriError(`${key}: is not a query variable of ${BINDING_URI_TEMPLATE}`);
  }
  const q = url.searchParams;
  const tierRaw = q.get('tier');
  const tier = tierRaw === null ? '2' : TIERS[tierRaw];
  if (!tier) throw new UriError('tier: must be "1" (summary), "1.5" (+ preview) or "2" (full content)');
  let space: string;
  let binding: string;
  try {
    space = decodeURIComponent(url.hostname).replace(/^@/, '');
    binding = decodeURIComponent(segments[0]);
  } catch {
    throw new UriError('uri: has a malformed percent-encoding');
  }
  return { space, binding, version: positive('version', q.get('version')), tier, page: positive('page', q.get('page')) ?? 1 };
}

/** The URI of a binding (its current version at tier 2), or with the parts given. */
export function bindingUri(spaceSlug: string, bindingSlug: string, parts: { version?: number; tier?: Tier; page?: number } = {}): string {
  const q = new URLSearchParams();
  if (parts.version !== undefined) q.set('version', String(parts.version));
  if (parts.tier !== undefined && parts.tier !== '2') q.set('tier', parts.tier);
  if (parts.page !== undefined && parts.page > 1) q.set('page', String(parts.page));
  const query = q.size ? `?${q}` : '';
  return `bindery://${encodeURIComponent(spaceSlug)}/${encodeURIComponent(bindingSlug)}${query}`;
}
