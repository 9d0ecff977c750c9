import { html, num, type Html } from '../html.ts';
import type { SpaceItem } from '../pages/common.ts';
import { csrfField, layout, type Viewer } from './layout.ts';

/** The spaces page: what a person can read, and the form that makes a space (kept filled after an error). */
export interface SpacesData {
  user: Viewer;
  spaces: SpaceItem[];
  form: { slug: string; name: string };
  error?: string;
}

/** The spaces page. */
export function spacesView(d: SpacesData): Html {
  const body = html`<h1>Spaces</h1>
<table><thead><tr><th scope="col">Space</th><th scope="col">Name</th><th scope="col">Visibility</th><th scope="col">Your access</th><th scope="col">Bindings</th></tr></thead><tbody>
${d.spaces.map((s) => html`<tr><td><a href="/?space=${s.slug}">@${s.slug}</a></td><td>${s.name}${s.personal ? ' (personal)' : ''}</td><td>${s.visibility}</td><td>${s.access}${s.access === 'owner' ? '' : html` (owner ${s.owner})`}</td><td>${num(s.bindingCount)}</td></tr>`)}
</tbody></table>
<h2>New space</h2><form method="post" action="/spaces">${csrfField(d.user)}
<label for="slug">Slug (lowercase letters, digits and -)</label><input type="text" id="slug" name="slug" required maxlength="40" pattern="[a-z0-9][a-z0-9\\-]*[a-z0-9]" value="${d.form.slug}">
<label for="name">Name</label><input type="text" id="name" name="name" required maxlength="200" value="${d.form.name}">
<label for="visibility">Visibility</label><select id="visibility" name="visibility"><option value="private">private: only you and people you share with</option><option value="public">public: anyone can read</option></select>
<p><button type="submit" class="primary">Create space</button></p></form>`;
  return layout('Spaces', d.user, body, { error: d.error });
}
