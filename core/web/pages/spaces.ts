import { BinderyError } from '../../errors.ts';
import { createSpace } from '../../services/spaces.ts';
import { html, num } from '../html.ts';
import { csrfField, layout, page, redirect } from '../layout.ts';
import type { WebContext, WebRoute } from '../route.ts';
import { spaceOptions } from './common.ts';

// Spaces: the ones a person owns or can read (through a share or because they are public), and a
// form to make one.

async function list(ctx: WebContext, error?: string): Promise<Response> {
  const spaces = await spaceOptions(ctx);
  const f = ctx.form;
  const body = html`<h1>Spaces</h1>
<table><thead><tr><th scope="col">Space</th><th scope="col">Name</th><th scope="col">Visibility</th><th scope="col">Your access</th><th scope="col">Bindings</th></tr></thead><tbody>
${spaces.map((s) => html`<tr><td><a href="/?space=${s.slug}">@${s.slug}</a></td><td>${s.name}${s.personal ? ' (personal)' : ''}</td><td>${s.visibility}</td><td>${s.access}${s.access === 'owner' ? '' : html` (owner ${s.owner})`}</td><td>${num(s.bindingCount)}</td></tr>`)}
</tbody></table>
<h2>New space</h2><form method="post" action="/spaces">${csrfField(ctx.user)}
<label for="slug">Slug (lowercase letters, digits and -)</label><input type="text" id="slug" name="slug" required maxlength="40" pattern="[a-z0-9][a-z0-9\\-]*[a-z0-9]" value="${f.get('slug') ?? ''}">
<label for="name">Name</label><input type="text" id="name" name="name" required maxlength="200" value="${f.get('name') ?? ''}">
<label for="visibility">Visibility</label><select id="visibility" name="visibility"><option value="private">private: only you and people you share with</option><option value="public">public: anyone can read</option></select>
<p><button type="submit" class="primary">Create space</button></p></form>`;
  return page(layout('Spaces', ctx.user, body, { error }), error ? 400 : 200);
}

export const spaceRoutes: WebRoute[] = [
  { method: 'GET', path: /^\/spaces$/, handle: (ctx) => list(ctx) },
  {
    method: 'POST',
    path: /^\/spaces$/,
    async handle(ctx) {
      const f = ctx.form;
      const name = (f.get('name') ?? '').trim();
      if (!name || name.length > 200) return list(ctx, 'name: must be 1 to 200 characters');
      try {
        const space = await createSpace(ctx.core, ctx.user.caller, {
          slug: f.get('slug') ?? '',
          name,
          visibility: f.get('visibility') === 'public' ? 'public' : 'private',
        });
        return redirect(`/?space=${space.slug}`);
      } catch (err) {
        if (err instanceof BinderyError && (err.code === 'INVALID_INPUT' || err.code === 'CONFLICT')) return list(ctx, err.message);
        throw err;
      }
    },
  },
];
