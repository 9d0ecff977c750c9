// The same refresh token or authorization code used twice at the same moment, against
// a real libSQL file. Exactly one use may win, and the reuse it races with must revoke every token of
// the grant, the winner's fresh ones included (RFC 9700 §4.14.2). Before the fix the winner's tokens
// were written after the loser had revoked the family, so they survived (14–17 of 20 refresh races,
// 19 of 20 code replays).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authorizeQuery, consent, form, grant, mcpStatus, oauthWorld, pkce, REDIRECT, register, type OAuthWorld } from './world.ts';

const RACES = 20;
let dir: string;
let w: OAuthWorld;
let clientId: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bindery-races-'));
  w = await oauthWorld(`file:${join(dir, 'races.db')}`);
  clientId = await register(w);
});
afterAll(async () => {
  await w.close();
  rmSync(dir, { recursive: true, force: true });
});

type TokenBody = { access_token?: string; refresh_token?: string; error?: string };

/** Whether any token a winner received still works: its access token opens /mcp, or its refresh token refreshes. */
async function anyAlive(bodies: TokenBody[]): Promise<boolean> {
  for (const b of bodies) {
    if (b.access_token && (await mcpStatus(w, b.access_token)).status === 200) return true;
    if (b.refresh_token) {
      const again = await w.fetch('/token', form({ grant_type: 'refresh_token', refresh_token: b.refresh_token, client_id: clientId }));
      if (again.status === 200) return true;
    }
  }
  return false;
}

describe('token reuse races (real libSQL file)', () => {
  test(`a refresh token used twice at once: one use wins, and the whole family ends, ${RACES} of ${RACES}`, async () => {
    let survived = 0;
    for (let i = 0; i < RACES; i++) {
      const t = await grant(w, clientId);
      const use = () => w.fetch('/token', form({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: clientId }));
      const answers = await Promise.all([use(), use()]);
      const bodies = (await Promise.all(answers.map((r) => r.json()))) as TokenBody[];
      // At most one use wins: two fresh token pairs from one refresh token would be a fork of the grant.
      expect(answers.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
      expect(bodies.some((b) => b.error === 'invalid_grant')).toBe(true);
      if (await anyAlive([...bodies, t])) survived++;
    }
    expect(survived).toBe(0);
  });

  test(`an authorization code exchanged twice at once: one exchange wins, and its tokens end, ${RACES} of ${RACES}`, async () => {
    let survived = 0;
    for (let i = 0; i < RACES; i++) {
      const { verifier, challenge } = await pkce();
      const code = (await consent(w, authorizeQuery(clientId, challenge))).searchParams.get('code')!;
      const use = () =>
        w.fetch(
          '/token',
          form({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId }),
        );
      const answers = await Promise.all([use(), use()]);
      const bodies = (await Promise.all(answers.map((r) => r.json()))) as TokenBody[];
      expect(answers.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
      expect(bodies.some((b) => b.error === 'invalid_grant')).toBe(true);
      if (await anyAlive(bodies)) survived++;
    }
    expect(survived).toBe(0);
  });

  test('without a race, a refresh still rotates and the new tokens work', async () => {
    const t = await grant(w, clientId);
    const r = await w.fetch('/token', form({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: clientId }));
    expect(r.status).toBe(200);
    const body = (await r.json()) as TokenBody;
    expect((await mcpStatus(w, body.access_token!)).status).toBe(200);
    expect((await mcpStatus(w, t.access_token)).status).toBe(200);
  });
});
