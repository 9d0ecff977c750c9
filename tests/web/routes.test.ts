// The web app's routes take the ids the tools take (core/ids.ts idPattern): a URL whose id could never
// name a binding or a set is the one 404 page, as a missing binding is, not a form error.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { webWorld, type Browser, type WebWorld } from './web-world.ts';

let w: WebWorld;
let dora: Browser;
beforeAll(async () => {
  w = await webWorld();
  dora = await w.signIn('dora');
});
afterAll(() => w.close());

describe('web routes and tool ids agree', () => {
  test('a well-formed id of nothing and a malformed id answer the same 404 page', async () => {
    const missing = await dora.page('/b/bnd_0123456789abcdef');
    expect(missing.status).toBe(404);
    for (const path of ['/b/bnd_NOT-A-REAL-ID', '/b/bnd_0123456789abcdef0', '/b/bnd_x/edit', '/sets/set_ABC', '/sets/set_0123']) {
      const bad = await dora.page(path);
      expect({ path, status: bad.status }).toEqual({ path, status: 404 });
      expect(bad.html).toBe(missing.html);
    }
  });

  test('a well-formed set id of nothing is the 404 page too', async () => {
    expect((await dora.page('/sets/set_0123456789abcdef')).status).toBe(404);
  });
});
