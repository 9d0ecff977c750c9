// Defaults an embedder meets first: the edge handler logs to console.error when it answers 500
// "see its log" (no logger passed), and PORT moves the default BINDERY_PUBLIC_URL.
import { describe, expect, spyOn, test } from 'bun:test';
import { createFetchHandler } from '../../adapters/edge.ts';
import { parseConfig } from '../../core/index.ts';

describe('edge handler default logger', () => {
  test('a handler that cannot start answers 500 and says why on console.error', async () => {
    const spy = spyOn(console, 'error').mockImplementation(() => {});
    try {
      // A file: URL with no `database` option: the edge's web client refuses it.
      const handler = createFetchHandler({ env: { BINDERY_DB_URL: 'file:./nowhere.db' } });
      const r = await handler(new Request('http://localhost:8787/healthz'));
      expect(r.status).toBe(500);
      expect(((await r.json()) as { error: { message: string } }).error.message).toContain('see its log');
      const logged = spy.mock.calls.map((c) => c.join(' ')).join('\n');
      expect(logged).toContain('[bindery] error: edge handler could not start');
      expect(logged).toContain('BINDERY_DB_URL: the edge handler needs a libsql:// or https:// URL');
    } finally {
      spy.mockRestore();
    }
  });

  test('a logger passed in replaces the default', async () => {
    const spy = spyOn(console, 'error').mockImplementation(() => {});
    const seen: string[] = [];
    try {
      const handler = createFetchHandler({
        env: { BINDERY_DB_URL: 'file:./nowhere.db' },
        log: { info() {}, warn() {}, error: (m) => void seen.push(m) },
      });
      expect((await handler(new Request('http://localhost:8787/healthz'))).status).toBe(500);
      expect(seen).toEqual(['edge handler could not start']);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});

describe('PORT and the default public URL', () => {
  test('without BINDERY_PUBLIC_URL, links and allowed hosts follow PORT', () => {
    expect(parseConfig({}).publicUrl).toBe('http://localhost:8787');
    const c = parseConfig({ PORT: '9000' });
    expect(c.port).toBe(9000);
    expect(c.publicUrl).toBe('http://localhost:9000');
    expect(c.http.allowedOrigins).toContain('http://localhost:9000');
  });

  test('BINDERY_PUBLIC_URL still wins; PORT=0 (any free port) keeps the default', () => {
    expect(parseConfig({ PORT: '9000', BINDERY_PUBLIC_URL: 'https://kb.example.com/' }).publicUrl).toBe('https://kb.example.com');
    expect(parseConfig({ PORT: '0' }).publicUrl).toBe('http://localhost:8787');
  });
});
