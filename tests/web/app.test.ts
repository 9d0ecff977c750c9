// The web app through the HTTP app's fetch (what `bun run serve` and the edge handler mount): sign-in,
// CSRF, reads through access checks (404 alike for missing and private), escaping, edit conflicts,
// delete/restore, sets with their budget preview, shares and comments, all as a browser would post.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { listVersionRows } from '../../db/store/bindings.ts';
import { addComment } from '../../core/services/comments.ts';
import { createBinding, updateBinding } from '../../core/services/bindings.ts';
import { restContext } from '../../core/http/rest-tools.ts';
import { callTool } from '../../core/tools/call.ts';
import { TOOLS } from '../../core/tools/registry.ts';
import { createLoginLink } from '../../core/web/session.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { webWorld, type Browser, type WebWorld } from './web-world.ts';

const HUMAN = { source: 'human', model: null } as const;
const LLM = { source: 'llm', model: 'claude-test-1' } as const;

let w: WebWorld;
let alice: Browser;
let bob: Browser;
let bobPrivate = '';
let aliceDoc = '';

beforeAll(async () => {
  w = await webWorld();
  alice = await w.signIn('alice');
  bob = await w.signIn('bob');
  await w.deps.tokens.load();
  bobPrivate = (
    await createBinding(
      w.deps,
      bob.caller,
      { name: 'Bob zanzibarite plan', content: '# Plan\n\nThe zanzibarite secret.\n', summary: 'Secret.' },
      HUMAN,
    )
  ).bindingId;
  aliceDoc = (
    await createBinding(
      w.deps,
      alice.caller,
      {
        name: 'Release checklist',
        content: '# Steps\n\nTag the release.\n\n## Rollback\n\nRevert the quokka deploy and page the on-call.\n',
        summary: 'How we ship.',
      },
      HUMAN,
    )
  ).bindingId;
  await createBinding(
    w.deps,
    alice.caller,
    { name: 'Assistant notes on quokka', content: 'The quokka service notes by a model.\n', summary: 'Model notes.' },
    LLM,
  );
});
afterAll(() => w.close());

const idFrom = (location: string | null) => /\/(?:b|sets)\/((?:bnd|set)_[A-Za-z0-9_-]+)/.exec(location ?? '')?.[1] as string;

describe('sign-in', () => {
  test('a visitor at / sees the sign-in page, explaining bindery login-link; other pages ask to sign in', async () => {
    const home = await w.anon('/');
    expect(home.status).toBe(200);
    const text = await home.text();
    expect(text).toContain('login-link --user');
    expect(home.headers.get('content-security-policy')).toContain("script-src 'self'");
    const other = await w.anon(`/b/${aliceDoc}`);
    expect(other.status).toBe(401);
    expect(await other.text()).not.toContain('Release checklist');
  });

  test('GET /login/<token> only shows a button; POST signs in once, only from our Origin', async () => {
    const carol = await ensureCaller(w.deps, 'carol');
    const { url } = await createLoginLink(w.deps, carol.id);
    const path = new URL(url).pathname;
    for (let i = 0; i < 2; i++) {
      const confirm = await w.anon(path);
      expect(confirm.status).toBe(200);
      expect(await confirm.text()).toContain(`<form method="post" action="${path}">`);
    }
    expect((await w.anon(path, { method: 'POST' })).status).toBe(403);
    const ok = await w.anon(path, { method: 'POST', headers: { Origin: w.base } });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('set-cookie')).toMatch(/^bindery_session=.*HttpOnly; SameSite=Lax/);
    expect((await w.anon(path, { method: 'POST', headers: { Origin: w.base } })).status).toBe(410);
    expect((await w.anon(path)).status).toBe(410);
  });

  test('CLI: bindery login-link --user prints a working one-time URL', async () => {
    const dir = `/tmp/bindery-web-cli-${process.pid}`;
    const env = { ...process.env, BINDERY_DB_URL: `file:${dir}.db`, BINDERY_PUBLIC_URL: 'http://localhost:8787' };
    const p = Bun.spawnSync(['bun', 'adapters/cli.ts', 'login-link', '--user', 'dora'], { env, cwd: `${import.meta.dir}/../..` });
    expect(p.exitCode).toBe(0);
    expect(p.stdout.toString().trim()).toMatch(/^http:\/\/localhost:8787\/login\/[A-Za-z0-9_-]{43}$/);
    const bad = Bun.spawnSync(['bun', 'adapters/cli.ts', 'login-link'], { env, cwd: `${import.meta.dir}/../..` });
    expect(bad.exitCode).toBe(2);
    for (const f of ['', '-wal', '-shm'])
      await Bun.file(`${dir}.db${f}`)
        .delete()
        .catch(() => {});
  }, 30_000);

  test('every form post needs the CSRF secret and our Origin', async () => {
    const fields = { space: 'alice', name: 'Nope', summary: 's', content: 'c' };
    expect((await alice.post('/new', fields, { csrf: null })).status).toBe(403);
    expect((await alice.post('/new', fields, { csrf: 'x'.repeat(43) })).status).toBe(403);
    expect((await alice.post('/new', fields, { origin: null })).status).toBe(403);
    expect((await alice.post('/new', fields, { origin: 'https://evil.example' })).status).toBe(403);
    // Bob's secret does not work in Alice's session.
    const bobCsrf = (await bob.page('/')).csrf!;
    expect((await alice.post('/new', fields, { csrf: bobCsrf })).status).toBe(403);
    expect((await alice.page('/?q=Nope')).html).not.toContain('<strong>Nope</strong>');
  });
});

describe('reading', () => {
  test('search shows the match excerpt; filters by provenance and space', async () => {
    const hit = await alice.page('/?q=quokka');
    expect(hit.html).toContain('Release checklist');
    expect(hit.html).toContain('class="excerpt"');
    expect(hit.html).toMatch(/Rollback/);
    const llm = await alice.page('/?q=quokka&source=llm');
    expect(llm.html).toContain('Assistant notes on quokka');
    expect(llm.html).not.toContain('Release checklist');
    expect(llm.html).toContain('prov-llm');
    const human = await alice.page('/?source=human');
    expect(human.html).toContain('Release checklist');
    expect(human.html).not.toContain('Assistant notes on quokka');
    expect((await alice.page('/?space=alice')).html).toContain('Release checklist');
  });

  test('what a person may not read is the same 404 as what does not exist, on every page', async () => {
    const missing = 'bnd_doesnotexist00000000';
    for (const suffix of ['', '/diff?from=1&to=1', '/edit']) {
      const a = await alice.get(`/b/${bobPrivate}${suffix}`);
      const b = await alice.get(`/b/${missing}${suffix}`);
      expect(a.status).toBe(404);
      expect(await a.text()).toBe(await b.text());
    }
    for (const path of [`/b/${bobPrivate}/delete`, `/b/${bobPrivate}/restore`, `/b/${bobPrivate}/comments`]) {
      const r = await alice.post(path, { body: 'hi' });
      expect(r.status).toBe(404);
      expect(await r.text()).not.toContain('zanzibarite');
    }
    expect((await alice.page('/?q=zanzibarite')).html).not.toContain('Bob zanzibarite plan');
    expect((await alice.post('/shares', { target: bobPrivate, permission: 'read' })).status).toBe(404);
    expect((await alice.get('/sets/set_nope0000000')).status).toBe(404);
    expect((await alice.get('/no/such/page')).status).toBe(404);
  });

  test('hostile names, content and comments are escaped; Markdown renders inert', async () => {
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const row = await createBinding(
      w.deps,
      alice.caller,
      {
        name: `Evil ${hostile}`,
        summary: `"><svg onload=alert(3)>`,
        keyPoints: ['<b onclick=x>kp</b>'],
        content: `# Hi\n\n${hostile}\n\n[click](javascript:alert(4)) <iframe src="https://evil.example"></iframe>\n`,
      },
      HUMAN,
    );
    await addComment(w.deps, alice.caller, { id: row.bindingId, body: `comment ${hostile}` }, LLM);
    for (const path of [`/b/${row.bindingId}`, '/?q=Evil', `/b/${row.bindingId}/edit`, '/']) {
      const { html } = await alice.page(path);
      expect(html).not.toContain('<script>alert');
      expect(html).not.toMatch(/<img[^>]*onerror/i);
      expect(html).not.toMatch(/<svg/i);
      expect(html).not.toMatch(/<iframe/i);
      expect(html).not.toMatch(/<b onclick/i);
      expect(html).not.toContain('href="javascript:');
      if (path.startsWith('/b/') && !path.endsWith('/edit')) expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    }
  });

  test('a binding page shows exact tier costs, every version with provenance, and a diff', async () => {
    await updateBinding(
      w.deps,
      alice.caller,
      aliceDoc,
      { content: '# Steps\n\nTag the release.\n\n## Rollback\n\nRevert the quokka deploy.\n' },
      LLM,
    );
    const { html } = await alice.page(`/b/${aliceDoc}`);
    const row = await callTool(restContext(w.deps, alice.caller), TOOLS.get_binding, { id: aliceDoc, tier: '2' });
    expect(html).toContain('What an assistant loads');
    expect(html).toContain(`${row.binding.contentTokenCount} tokens of Markdown`);
    expect(html).toMatch(/v2<\/a> <span class="prov prov-llm"[^>]*>🤖 Assistant · <span class="model">claude-test-1/);
    expect(html).toMatch(/v1<\/a> <span class="prov prov-human"/);
    const diff = await alice.page(`/b/${aliceDoc}/diff?from=1&to=2`);
    expect(diff.html).toContain('<div class="del"><span class="skip">removed: </span>Revert the quokka deploy and page the on-call.</div>');
    expect(diff.html).toContain('<div class="add"><span class="skip">added: </span>Revert the quokka deploy.</div>');
  });
});

describe('writing', () => {
  test('create, then edit with preview: a new human version; a conflict shows theirs and keeps yours', async () => {
    const made = await alice.post('/new', {
      space: 'alice',
      name: 'Runbook',
      summary: 'Ops runbook.',
      keyPoints: 'one\ntwo',
      content: '# Runbook\n\nStart here.\n',
    });
    expect(made.status).toBe(303);
    const id = idFrom(made.headers.get('location'));
    const edit = await alice.page(`/b/${id}/edit`);
    expect(edit.html).toContain('name="expectedVersion" value="1"');
    const preview = await alice.post(`/b/${id}/edit`, {
      action: 'preview',
      expectedVersion: 1,
      name: 'Runbook',
      summary: 'Ops runbook.',
      keyPoints: 'one',
      content: '# Runbook\n\n**Bold** move.\n',
    });
    expect(await preview.text()).toContain('<strong>Bold</strong>');
    // Someone (an assistant) saves version 2 meanwhile.
    await updateBinding(w.deps, alice.caller, id, { content: '# Runbook\n\nTheir assistant text.\n' }, LLM);
    const mine = '# Runbook\n\nMy careful human paragraph.\n';
    const conflict = await alice.post(`/b/${id}/edit`, {
      action: 'save',
      expectedVersion: 1,
      name: 'Runbook',
      summary: 'Ops runbook.',
      keyPoints: 'one',
      content: mine,
    });
    expect(conflict.status).toBe(409);
    const page = await conflict.text();
    expect(page).toContain('Their assistant text.');
    expect(page).toContain('My careful human paragraph.\n</textarea>');
    expect(page).toContain('name="expectedVersion" value="2"');
    expect((await listVersionRows(w.deps.db, id, 0, 10)).total).toBe(2);
    const saved = await alice.post(`/b/${id}/edit`, {
      action: 'save',
      expectedVersion: 2,
      name: 'Runbook',
      summary: 'Ops runbook.',
      keyPoints: 'one',
      content: mine,
    });
    expect(saved.status).toBe(303);
    const versions = (await listVersionRows(w.deps.db, id, 0, 10)).rows;
    expect(versions.map((v) => [v.number, v.source, v.model])).toEqual([
      [3, 'human', null],
      [2, 'llm', 'claude-test-1'],
      [1, 'human', null],
    ]);
  });

  test('bob may read a shared binding but not edit or delete it (403), and comments as a person', async () => {
    const share = await alice.post('/shares', { target: aliceDoc, user: 'bob', permission: 'comment', back: `/b/${aliceDoc}` });
    expect(share.status).toBe(303);
    expect((await bob.page(`/b/${aliceDoc}`)).status).toBe(200);
    expect((await bob.get(`/b/${aliceDoc}/edit`)).status).toBe(403);
    expect((await bob.post(`/b/${aliceDoc}/delete`, {})).status).toBe(403);
    expect((await bob.post(`/b/${aliceDoc}/comments`, { body: 'Looks **good** <u>x</u>' })).status).toBe(303);
    const { html } = await alice.page(`/b/${aliceDoc}`);
    expect(html).toMatch(/<article class="comment human" aria-label="comment by @bob">/);
    expect(html).toContain('<strong>good</strong> &lt;u&gt;x&lt;/u&gt;');
  });

  test('delete hides a binding; restore brings it back into search', async () => {
    const made = await alice.post('/new', { space: 'alice', name: 'Wombat memo', summary: 'Memo.', content: 'The wombat memo.\n' });
    const id = idFrom(made.headers.get('location'));
    expect((await alice.post(`/b/${id}/delete`, {})).status).toBe(303);
    expect((await alice.get(`/b/${id}`)).status).toBe(404);
    expect((await alice.page('/?q=wombat')).html).not.toContain('Wombat memo');
    expect((await alice.page('/trash')).html).toContain('Wombat memo');
    expect((await bob.post(`/b/${id}/restore`, {})).status).toBe(404);
    expect((await alice.post(`/b/${id}/restore`, {})).status).toBe(303);
    expect((await alice.page('/?q=wombat')).html).toContain('Wombat memo');
    expect((await alice.post(`/b/${id}/restore`, {})).status).toBe(404);
  });

  test('sets: create, add, reorder, pin; the budget preview is what get_set_context packs', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const row = await createBinding(
        w.deps,
        alice.caller,
        { name: `Chapter ${i}`, summary: `Chapter ${i}.`, content: `# Chapter ${i}\n\n${'Words about budgets. '.repeat(40 * (i + 1))}\n` },
        HUMAN,
      );
      ids.push(row.bindingId);
    }
    const made = await alice.post('/sets', { name: 'Book', space: 'alice', description: 'Chapters' });
    const setId = idFrom(made.headers.get('location'));
    for (const id of ids) expect((await alice.post(`/sets/${setId}/items`, { action: 'add', bindingId: id })).status).toBe(303);
    expect((await alice.post(`/sets/${setId}/items`, { action: 'move', bindingId: ids[4]!, position: 0 })).status).toBe(303);
    expect((await alice.post(`/sets/${setId}/items`, { action: 'pin', bindingId: ids[0]!, version: 1 })).status).toBe(303);
    const ctx = restContext(w.deps, alice.caller);
    const set = await callTool(ctx, TOOLS.get_set, { id: setId });
    expect(set.items.map((i) => i.id)).toEqual([4, 0, 1, 2, 3].map((k) => ids[k]!));
    expect(set.items[1]!.pinned).toBe(true);
    const { html } = await alice.page(`/sets/${setId}?maxTokens=900&tier=2&strategy=fill&fallback=no`);
    const packed = await callTool(ctx, TOOLS.get_set_context, { setId, maxTokens: 900, tier: '2', strategy: 'fill', fallback: false });
    const fits = packed.budget.included.length;
    const misses = packed.budget.omitted.length;
    expect(fits).toBeGreaterThan(0);
    expect(misses).toBeGreaterThan(0);
    expect(html).toContain(
      `In 900 tokens at tier 2, ${fits} item${fits === 1 ? '' : 's'} fit${fits === 1 ? 's' : ''}, ${misses} do${misses === 1 ? 'es' : ''} not`,
    );
    expect(html).toContain(`(${packed.budget.usedTokens.toLocaleString('en-US')} tokens used`);
    expect(html.match(/✓ fits at tier/g)?.length).toBe(fits);
    // Bob cannot see or edit Alice's set.
    expect((await bob.get(`/sets/${setId}`)).status).toBe(404);
    expect((await bob.post(`/sets/${setId}/items`, { action: 'remove', bindingId: ids[0]! })).status).toBe(404);
  });

  test('a public link: its secret is shown once, opens the page, and stops on revoke', async () => {
    const res = await alice.post('/shares', { target: aliceDoc, user: '', permission: 'read', back: `/b/${aliceDoc}` });
    expect(res.status).toBe(200);
    const html = await res.text();
    const link = /<p class="secret" id="share-link">([^<]+)<\/p>/.exec(html)![1]!.replace(/&amp;/g, '&');
    const path = link.slice(w.base.length);
    expect((await w.anon(path)).status).toBe(200);
    const page = await alice.page(`/b/${aliceDoc}`);
    expect(page.html).not.toContain(link.split('share=')[1]!);
    const shareId =
      /\/shares\/(shr_[A-Za-z0-9_-]+)\/revoke[\s\S]{0,400}?Public link|Public link[\s\S]{0,400}?\/shares\/(shr_[A-Za-z0-9_-]+)\/revoke/.exec(
        page.html,
      )!;
    const id = shareId[1] ?? shareId[2]!;
    expect((await alice.post(`/shares/${id}/revoke`, { back: `/b/${aliceDoc}` })).status).toBe(303);
    expect((await w.anon(path)).status).toBe(404);
  });

  test('sign out ends the session at once', async () => {
    const erin = await w.signIn('erin');
    expect((await erin.page('/')).html).toContain('@erin');
    expect((await erin.post('/logout', {})).headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await erin.get('/spaces')).status).toBe(401);
  });
});

describe('small things a newcomer sees', () => {
  test('space menus and the spaces table name a space once: @alice, never @@alice, and the chosen one stays selected', async () => {
    for (const path of ['/', '/new', '/sets', '/spaces', '/?space=alice']) {
      const { status, html } = await alice.page(path);
      expect(status).toBe(200);
      expect(html).not.toContain('@@');
    }
    const { html } = await alice.page('/?space=alice');
    expect(html).toContain('<option value="alice" selected>@alice</option>');
    expect((await alice.page('/new')).html).toContain('<option value="alice" >@alice</option>');
  });

  test('every row of a set has the same cells in the same order, first and last rows included', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (
          await createBinding(
            w.deps,
            alice.caller,
            { name: `Row ${i}${'x'.repeat(i * 20)}`, summary: `Row ${i}.`, content: `Row ${i} text.\n` },
            HUMAN,
          )
        ).bindingId,
      );
    const setId = idFrom((await alice.post('/sets', { name: 'Rows', space: 'alice' })).headers.get('location'));
    for (const id of ids) await alice.post(`/sets/${setId}/items`, { action: 'add', bindingId: id });
    await alice.post(`/sets/${setId}/items`, { action: 'pin', bindingId: ids[1]!, version: 1 });
    const { html } = await alice.page(`/sets/${setId}`);
    const rows = [...html.matchAll(/<li data-id="[^"]+">([\s\S]*?)<\/li>/g)].map((m) => m[1]!);
    expect(rows).toHaveLength(3);
    // The outline of a row: its cells (by class) and its action slots.
    const outline = (row: string) =>
      [...row.matchAll(/<span class="(pos|what|costs|fit|nofit|actions|slot)"/g)].map((m) => (m[1] === 'nofit' ? 'fit' : m[1]));
    expect(outline(rows[0]!)).toEqual(['pos', 'what', 'costs', 'fit', 'actions', 'slot', 'slot', 'slot', 'slot']);
    expect(outline(rows[1]!)).toEqual(outline(rows[0]!));
    expect(outline(rows[2]!)).toEqual(outline(rows[0]!));
    const css = await (await w.anon('/web/app.css')).text();
    expect(css).toMatch(/\.items li\{display:grid;grid-template-columns:[^}]+\}/);
  });

  test('connected apps (/oauth/grants) is in the navigation of every page, and links back', async () => {
    for (const path of ['/', '/spaces', '/sets', '/shares'])
      expect((await alice.page(path)).html).toContain('<a href="/oauth/grants">Connected apps</a>');
    const grants = await alice.page('/oauth/grants');
    expect(grants.status).toBe(200);
    expect(grants.html).toContain('<a href="/">← Bindery</a>');
  });

  test('/favicon.ico answers an SVG icon (not a 404), for visitors too; pages link it', async () => {
    for (const path of ['/favicon.ico', '/favicon.svg']) {
      const res = await w.anon(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      expect(await res.text()).toStartWith('<svg xmlns="http://www.w3.org/2000/svg"');
    }
    expect((await alice.page('/')).html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
  });
});
