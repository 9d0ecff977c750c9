// The per-source limiter of anonymous registration: token buckets, bounded in memory.
import { describe, expect, test } from 'bun:test';
import { createRateLimiter, sourceKey } from '../../core/oauth/rate-limit.ts';

describe('rate limiter', () => {
  test('a burst, then one more per refill period; the wait it names is the time to the next one', () => {
    const l = createRateLimiter({ burst: 3, refillMs: 60_000, maxSources: 10 });
    expect([l.take('a', 0), l.take('a', 0), l.take('a', 0)]).toEqual([0, 0, 0]);
    expect(l.take('a', 0)).toBe(60);
    expect(l.take('a', 30_000)).toBe(30);
    expect(l.take('a', 60_000)).toBe(0);
    expect(l.take('a', 60_000)).toBe(60);
    expect(l.take('b', 60_000)).toBe(0);
    // Refill stops at the burst.
    expect([0, 0, 0, 1].map(() => l.take('c', 10_000_000))).toEqual([0, 0, 0, 60]);
  });

  test('memory stays bounded under 100,000 distinct sources; the least recently seen are forgotten first', () => {
    const l = createRateLimiter({ burst: 1, refillMs: 60_000, maxSources: 100 });
    l.take('keep', 0);
    for (let i = 0; i < 100_000; i++) {
      l.take(`s${i}`, 1);
      if (i % 50 === 0) l.take('keep', 1);
      expect(l.size).toBeLessThanOrEqual(100);
    }
    // 'keep' was seen often, so it is still remembered (and still spent).
    expect(l.take('keep', 2)).toBeGreaterThan(0);
  });

  test('source keys: IPv4 as is (also IPv4-mapped), IPv6 by its /64, unknown shared', () => {
    expect(sourceKey('192.0.2.1')).toBe('192.0.2.1');
    expect(sourceKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(sourceKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(sourceKey('2001:0db8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(sourceKey('[2001:db8::1]')).toBe('2001:db8:0:0::/64');
    expect(sourceKey(undefined)).toBe('unknown');
    expect(sourceKey('')).toBe('unknown');
  });
});
