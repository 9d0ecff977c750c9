// A per-source rate limit for anonymous endpoints (POST /register), in memory and bounded in memory
// too: one token bucket per client address, at most `maxSources` of them. When the table is full the
// least recently seen source is forgotten (it starts again with a full bucket): an attacker with many
// addresses can churn the table but never grow it, and the database-side cap on pending clients
// (register.ts) still bounds what they can store. Per process: several processes each keep their own.

export interface RateLimit {
  /** Requests a source may make at once. */
  burst: number;
  /** One more request is allowed every `refillMs`. */
  refillMs: number;
  /** Sources remembered at most. */
  maxSources: number;
}

/** 20 registrations an hour per address, as hosted authorization servers allow (GitLab 10, Resend 20). */
export const REGISTRATION_RATE: RateLimit = { burst: 20, refillMs: 180_000, maxSources: 10_000 };

export interface RateLimiter {
  /** Takes one request from `source`'s bucket: 0 when allowed, else the seconds until one is. */
  take(source: string, now: number): number;
  /** Sources remembered now (never more than `maxSources`). */
  readonly size: number;
}

/** A limiter keyed by source (see `sourceKey`). */
export function createRateLimiter(limit: RateLimit): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    get size() {
      return buckets.size;
    },
    take(source, now) {
      const seen = buckets.get(source);
      if (seen) buckets.delete(source);
      else if (buckets.size >= limit.maxSources) buckets.delete(buckets.keys().next().value!);
      // Continuous refill: a fraction of a request accrues with every millisecond.
      const tokens = seen ? Math.min(limit.burst, seen.tokens + (now - seen.at) / limit.refillMs) : limit.burst;
      const allowed = tokens >= 1;
      // Re-inserted last: Map order is least recently seen first.
      buckets.set(source, { tokens: allowed ? tokens - 1 : tokens, at: now });
      return allowed ? 0 : Math.max(1, Math.ceil(((1 - tokens) * limit.refillMs) / 1000));
    },
  };
}

/**
 * The bucket key of a client address: IPv6 by its /64 (one host usually holds a whole /64), IPv4 as
 * it is; no address known (an embedder that does not pass one) shares the key `unknown`.
 */
export function sourceKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const a = address.replace(/^\[|\]$/g, '').toLowerCase();
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a);
  if (v4) return v4[1]!;
  if (!a.includes(':')) return a.slice(0, 64);
  const [head = '', tail = ''] = a.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = a.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
