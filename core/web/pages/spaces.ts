import { BinderyError } from '../../errors.ts';
import { createSpace } from '../../services/spaces.ts';
import { definePage, show, type Loaded } from '../page.ts';
import { redirect } from '../respond.ts';
import type { WebContext, WebRoute } from '../route.ts';
import { spacesView, type SpacesData } from '../views/spaces.ts';
import { spaceOptions } from './common.ts';

// Spaces: the ones a person owns or can read (through a share or because they are public), and a
// form to make one.

async function list(ctx: WebContext, error?: string): Promise<Loaded<SpacesData>> {
  const spaces = await spaceOptions(ctx);
  const form = { slug: ctx.form.get('slug') ?? '', name: ctx.form.get('name') ?? '' };
  return show({ user: ctx.user, spaces, form, error }, error ? 400 : 200);
}

/** The spaces pages' routes (each a definePage or defineAction). */
export const spaceRoutes: WebRoute[] = [
  { method: 'GET', path: /^\/spaces$/, page: definePage({ load: (ctx) => list(ctx), view: spacesView }) },
  {
    method: 'POST',
    path: /^\/spaces$/,
    page: definePage({
      async load(ctx) {
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
      // A refused form comes back with its fields and the reason.
      view: spacesView,
    }),
  },
];
