// Write races outside bindings (races.test.ts for bindings): spaces, users, shares, sets, comments, keys and the
// REST face of the binding writes. No race is ever answered INTERNAL (HTTP 500), no refused write
// leaves a row behind, and a write that happened is answered as written.
import { describe, expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { ensureCaller } from '../../core/services/prepare.ts';
import { callerForKey, createApiKey } from '../../core/http/auth.ts';
import { handleRest } from '../../core/http/rest.ts';
import { revokeApiKey } from '../../db/store/api-keys.ts';
import { call, ok, textOf } from '../helpers.ts';
import { createSpace } from '../../core/services/spaces.ts';
import { deleteBinding } from '../../core/services/bindings.ts';
import { importDocument } from '../../core/services/import.ts';
import { after, afterMicrotasks, codeOf, countOf, createTwoHandleWorld, range, track, world } from './race-helpers.ts';

describe('spaces and users', () => {
  test('create_space with one slug at once: one OK, the others CONFLICT naming slug', async () => {
    const w = await world();
    const clients = await Promise.all(['ann', 'ben', 'cat'].map((h) => w.connect(h)));
    const answers = await Promise.all(range(9).map((i) => call(clients[i % 3]!, 'create_space', { slug: 'team-x', name: `Team ${i}` })));
    const codes = answers.map(codeOf);
    expect(codes.filter((c) => c === 'OK')).toHaveLength(1);
    expect(codes.filter((c) => c === 'CONFLICT')).toHaveLength(8);
    for (const a of answers.filter((r) => r.isError)) expect(textOf(a)).toContain('slug: @team-x is taken');
    expect(await countOf(w.db, sql`SELECT count(*) AS n FROM spaces WHERE slug = 'team-x'`)).toBe(1);
  });

  test('ensureCaller for a new handle from many requests at once: one user, one personal space', async () => {
    const w = await world();
    const deps = { db: w.db, now: () => Date.now() };
    const callers = await Promise.all(
      range(12).map((i) =>
        i % 2 ? after(i % 3, () => ensureCaller(deps, 'newbie')) : afterMicrotasks(i, () => ensureCaller(deps, 'newbie')),
      ),
    );
    expect(new Set(callers.map((c) => c.id)).size).toBe(1);
    expect(await countOf(w.db, sql`SELECT count(*) AS n FROM users WHERE handle = 'newbie'`)).toBe(1);
    expect(await countOf(w.db, sql`SELECT count(*) AS n FROM spaces WHERE owner_id = ${callers[0]!.id} AND personal = 1`)).toBe(1);
    expect(await countOf(w.db, sql`SELECT count(*) AS n FROM spaces WHERE owner_id NOT IN (SELECT id FROM users)`)).toBe(0);
  });

  test('a new user whose slug a team space takes meanwhile still gets a personal space', async () => {
    const w = await world();
    const deps = { db: w.db, tokens: w.tokens, config: w.config, now: () => Date.now() };
    const owner = await ensureCaller(deps, 'owner');
    let teamFirst = 0;
    // Microtask offsets put the team space's insert between the user's slug choice and its write.
    for (const i of range(40)) {
      const handle = `late${i}`;
      const [team, caller] = await Promise.all([
        afterMicrotasks(i, () => createSpace(deps, owner, { slug: handle, name: 'Team' }).catch((e: Error) => e)),
        ensureCaller(deps, handle),
      ]);
      if (!(team instanceof Error)) teamFirst++;
      else expect(team.message).toContain(`slug: @${handle} is taken`);
      const personal = await w.db.all<{ slug: string }>(sql`SELECT slug FROM spaces WHERE owner_id = ${caller.id} AND personal = 1`);
      expect(personal).toHaveLength(1);
      expect(personal[0]!.slug).toBe(team instanceof Error ? handle : `${handle}-home`);
    }
    expect(teamFirst).toBeGreaterThan(0);
  });

  test('two connections on one file: ensureCaller and create_space races', async () => {
    const w = await createTwoHandleWorld();
    track(w);
    // Lock contention is the embedded client's to wait out; a SQLITE_BUSY here would be its failure.
    const callers = await Promise.all(range(6).map((i) => ensureCaller({ db: w.dbs[i % 2]!, now: () => Date.now() }, 'twin')));
    expect(new Set(callers.map((c) => c.id)).size).toBe(1);
    expect(await countOf(w.dbs[0], sql`SELECT count(*) AS n FROM spaces WHERE owner_id = ${callers[0]!.id} AND personal = 1`)).toBe(1);
    const [a, b] = [await w.connect(0, 'ann'), await w.connect(1, 'ben')];
    const codes = (await Promise.all(range(6).map((i) => call(i % 2 ? b : a, 'create_space', { slug: 'shared-x', name: 'X' })))).map(
      codeOf,
    );
    expect(codes.filter((c) => c === 'OK')).toHaveLength(1);
    expect(codes.filter((c) => c === 'CONFLICT')).toHaveLength(5);
  });

  test('keys: creates for a new handle at once all act as one user; concurrent revokes of one key, one revokes it', async () => {
    const w = await world();
    const minted = await Promise.all(
      range(5).map(async (i) => {
        // As `bindery keys create --user keyed` does, several at once.
        const caller = await afterMicrotasks(i, () => ensureCaller({ db: w.db, now: () => Date.now() }, 'keyed'));
        return createApiKey(w.db, caller.id, Date.now());
      }),
    );
    const owners = await Promise.all(minted.map((k) => callerForKey(w.db, k.key)));
    expect(new Set(owners.map((o) => o?.id)).size).toBe(1);
    expect(owners[0]?.handle).toBe('keyed');
    const { id } = minted[0]!;
    const done = await Promise.all(range(5).map(() => revokeApiKey(w.db, id, Date.now())));
    expect(done.filter(Boolean)).toHaveLength(1);
    expect(await callerForKey(w.db, minted[0]!.key)).toBeUndefined();
  });
});

describe('shares and comments', () => {
  test('create_share twice at once is idempotent: one live share, one created, the same id to all', async () => {
    const w = await world();
    const alice = await w.connect('alice');
    await w.connect('bob');
    const { binding } = await ok(alice, 'create_binding', { name: 'Shared', content: 'x', summary: 's' });
    for (const who of [{ user: 'bob' }, { public: true }] as Record<string, unknown>[]) {
      const answers = await Promise.all(
        range(6).map((i) => after(i % 2, () => ok(alice, 'create_share', { target: binding.id, permission: 'read', ...who }))),
      );
      expect(answers.filter((a) => a.created)).toHaveLength(1);
      expect(new Set(answers.map((a) => a.share.id)).size).toBe(1);
      expect(answers.filter((a) => a.linkUrl)).toHaveLength(who.public ? 1 : 0);
    }
    expect(await countOf(w.db, sql`SELECT count(*) AS n FROM shares WHERE revoked_at IS NULL AND target_id = ${binding.id}`)).toBe(2);
    // Raising the permission at once from several calls: still one live share per grantee.
    await Promise.all(range(4).map(() => ok(alice, 'create_share', { target: binding.id, permission: 'comment', user: 'bob' })));
    const live = await w.db.all<{ permission: string }>(
      sql`SELECT permission FROM shares WHERE revoked_at IS NULL AND target_id = ${binding.id} AND grantee_id IS NOT NULL`,
    );
    expect(live).toEqual([{ permission: 'comment' }]);
  });

  test('accepting a share racing a permission change: an accept answered OK is kept on the live share', async () => {
    const w = await world();
    const alice = await w.connect('alice');
    const bob = await w.connect('bob');
    // Microtask offsets walk the accept across the replace's read-then-write.
    for (const i of range(30)) {
      const { binding } = await ok(alice, 'create_binding', { name: `Acc ${i}`, content: 'x', summary: 's' });
      const { share } = await ok(alice, 'create_share', { target: binding.id, user: 'bob', permission: 'read' });
      const [accept, raise] = await Promise.all([
        afterMicrotasks(i, () => call(bob, 'create_share', { accept: share.id })),
        call(alice, 'create_share', { target: binding.id, user: 'bob', permission: 'comment' }),
      ]);
      expect(codeOf(raise)).toBe('OK');
      // Refused only because the replace revoked the share first; then nothing was accepted.
      expect(['OK', 'CONFLICT']).toContain(codeOf(accept));
      const live = await w.db.all<{ permission: string; acceptedAt: number | null }>(
        sql`SELECT permission, accepted_at AS acceptedAt FROM shares WHERE target_id = ${binding.id} AND revoked_at IS NULL`,
      );
      expect(live).toHaveLength(1);
      expect(live[0]!.permission).toBe('comment');
      expect(live[0]!.acceptedAt !== null).toBe(codeOf(accept) === 'OK');
    }
  });

  test('create_share racing delete_binding: a share is answered as made, or NOT_FOUND with no row', async () => {
    const w = await world();
    const alice = await w.connect('alice');
    await w.connect('bob');
    for (const i of range(8)) {
      const { binding } = await ok(alice, 'create_binding', { name: `S${i}`, content: 'x', summary: 's' });
      const [share] = await Promise.all([
        after(i % 2, () => call(alice, 'create_share', { target: binding.id, user: 'bob', permission: 'read' })),
        after((i >> 1) % 2, () => call(alice, 'delete_binding', { id: binding.id })),
      ]);
      expect(['OK', 'NOT_FOUND']).toContain(codeOf(share));
      expect(await countOf(w.db, sql`SELECT count(*) AS n FROM shares WHERE target_id = ${binding.id}`)).toBe(
        codeOf(share) === 'OK' ? 1 : 0,
      );
    }
  });

  test('add_comment at once and racing delete_binding: every OK has its row, every refusal is NOT_FOUND with none', async () => {
    const w = await world();
    const alice = await w.connect('alice');
    const { binding } = await ok(alice, 'create_binding', { name: 'Talked about', content: 'x', summary: 's' });
    const answers = await Promise.all(range(20).map((i) => call(alice, 'add_comment', { id: binding.id, body: `note ${i}` })));
    expect(answers.map(codeOf)).toEqual(range(20).map(() => 'OK'));
    expect(await countOf(w.db, sql`SELECT count(*) AS n FROM comments WHERE binding_id = ${binding.id}`)).toBe(20);
    const racing = await Promise.all([
      ...range(10).map((i) => after(i % 3, () => call(alice, 'add_comment', { id: binding.id, body: `late ${i}` }))),
      after(1, () => call(alice, 'delete_binding', { id: binding.id })),
    ]);
    const comments = racing.slice(0, 10).map(codeOf);
    expect(comments.every((c) => c === 'OK' || c === 'NOT_FOUND')).toBe(true);
    expect(await countOf(w.db, sql`SELECT count(*) AS n FROM comments WHERE binding_id = ${binding.id}`)).toBe(
      20 + comments.filter((c) => c === 'OK').length,
    );
  });
});

describe('sets', () => {
  test('edit_set_items and update_set racing delete_set: written and answered OK, or NOT_FOUND having written nothing', async () => {
    const w = await world();
    const alice = await w.connect('alice');
    const ids = (
      await Promise.all(range(3).map((i) => ok(alice, 'create_binding', { name: `Item ${i}`, content: 'x', summary: 's' })))
    ).map((r) => r.binding.id as string);
    for (const i of range(10)) {
      const { set } = await ok(alice, 'create_set', { name: `Set ${i}`, bindingIds: [ids[0]] });
      const [edit, rename, del] = await Promise.all([
        after(i % 3, () => call(alice, 'edit_set_items', { id: set.id, add: [{ bindingId: ids[1] }, { bindingId: ids[2] }] })),
        after((i + 1) % 3, () => call(alice, 'update_set', { id: set.id, name: `Renamed ${i}` })),
        after((i >> 1) % 3, () => call(alice, 'delete_set', { id: set.id })),
      ]);
      expect(codeOf(del)).toBe('OK');
      expect(['OK', 'NOT_FOUND']).toContain(codeOf(edit));
      expect(['OK', 'NOT_FOUND']).toContain(codeOf(rename));
      expect(await countOf(w.db, sql`SELECT count(*) AS n FROM set_items WHERE set_id = ${set.id}`)).toBe(codeOf(edit) === 'OK' ? 3 : 1);
      expect(await countOf(w.db, sql`SELECT count(*) AS n FROM sets WHERE id = ${set.id} AND name = ${`Renamed ${i}`}`)).toBe(
        codeOf(rename) === 'OK' ? 1 : 0,
      );
    }
  });

  test('concurrent delete_set: one OK, the others NOT_FOUND', async () => {
    const w = await world();
    const alice = await w.connect('alice');
    const { set } = await ok(alice, 'create_set', { name: 'Gone' });
    const codes = (await Promise.all(range(5).map(() => call(alice, 'delete_set', { id: set.id })))).map(codeOf);
    expect(codes.filter((c) => c === 'OK')).toHaveLength(1);
    expect(codes.filter((c) => c === 'NOT_FOUND')).toHaveLength(4);
  });
});

describe('import', () => {
  test('one file imported by several imports at once: one binding, the others find it', async () => {
    const w = await world();
    const deps = { db: w.db, tokens: w.tokens, config: w.config, now: () => Date.now() };
    const caller = await ensureCaller(deps, 'importer');
    const file = (text: string) => ({ sourcePath: 'notes/same.md', bytes: new TextEncoder().encode(text) });
    const first = await Promise.all(
      range(6).map((i) => afterMicrotasks(i * 3, () => importDocument(deps, caller, file('# Same\n\nOne text.\n')))),
    );
    expect(first.filter((o) => o.status === 'created')).toHaveLength(1);
    expect(first.filter((o) => o.status === 'unchanged')).toHaveLength(5);
    expect(await countOf(w.db, sql`SELECT count(*) AS n FROM bindings WHERE source_path = 'notes/same.md' AND deleted_at IS NULL`)).toBe(1);
    // A changed file imported at once, racing a delete of its binding: every outcome is an answer, never an error.
    const id = (first.find((o) => o.status === 'created') as { id: string }).id;
    const [again] = await Promise.all([
      importDocument(deps, caller, file('# Same\n\nA new text.\n')),
      afterMicrotasks(2, () => deleteBinding(deps, caller, id).catch(() => null)),
    ]);
    expect(['updated', 'created']).toContain(again.status);
    expect(await countOf(w.db, sql`SELECT count(*) AS n FROM bindings WHERE source_path = 'notes/same.md' AND deleted_at IS NULL`)).toBe(
      again.status === 'created' ? 1 : 0,
    );
  });
});

describe('REST answers races with 409/404, never 500', () => {
  test('same-name POSTs all 201; PATCH racing DELETE is 200 or 404; repeated DELETE is one 200', async () => {
    const w = await world();
    const caller = await ensureCaller({ db: w.db, now: () => Date.now() }, 'rester');
    const deps = { db: w.db, tokens: w.tokens, config: w.config, now: Date.now };
    const rest = (method: string, path: string, body?: unknown) =>
      handleRest(deps, caller, new Request(`http://x${path}`, { method }), new URL(`http://x${path}`), body).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as any,
      }));
    const created = await Promise.all(
      range(20).map(() => rest('POST', '/api/bindings', { name: 'Rest Note', content: 'x', summary: 's' })),
    );
    expect(created.map((r) => r.status)).toEqual(range(20).map(() => 201));
    expect(new Set(created.map((r) => r.body.binding.publicUrl)).size).toBe(20);
    const id = created[0]!.body.binding.id as string;
    const [patch, ...deletes] = await Promise.all([
      rest('PATCH', `/api/bindings/${id}`, { content: 'y' }),
      ...range(4).map((i) => after(i % 2, () => rest('DELETE', `/api/bindings/${id}`))),
    ]);
    expect([200, 404]).toContain(patch.status);
    expect(deletes.map((r) => r.status).sort()).toEqual([200, 404, 404, 404]);
    expect(await countOf(w.db, sql`SELECT count(*) AS n FROM versions WHERE binding_id = ${id}`)).toBe(patch.status === 200 ? 2 : 1);
    const stale = await Promise.all(
      range(4).map(() => rest('PATCH', `/api/bindings/${created[1]!.body.binding.id}`, { content: 'z', expectedVersion: 1 })),
    );
    expect(stale.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
  });
});
