import { html, type Html } from '../html.ts';
import { layout, type Viewer } from './layout.ts';

// The web app's pages for requests that go no further (the router answers them).

/** The one "not found" page: the same bytes whether the thing is missing or not yours to read. */
export function notFoundView(user: Viewer | undefined): Html {
  return layout('Not found', user, html`<h1>Not found</h1><p>There is nothing here, or you may not read it.</p>`);
}

/** A path of the app asked with a method it does not answer. */
export function notAllowedView(user: Viewer | undefined): Html {
  return layout('Not allowed', user, html`<h1>Method not allowed</h1>`);
}

/** A form over the size limit (or unreadable). */
export function tooLargeView(user: Viewer | undefined): Html {
  return layout('Too large', user, html`<h1>Too large</h1><p>The form was over the size limit.</p>`);
}

/** A form without this session's CSRF secret. */
export function refusedView(user: Viewer): Html {
  return layout(
    'Refused',
    user,
    html`<h1>Refused</h1><p>This form was not sent from a page of this site (or the page is stale). Go back, reload and try again.</p>`,
  );
}

/** An unexpected failure: nothing was changed. */
export function failedView(user: Viewer): Html {
  return layout('Error', user, html`<h1>Something went wrong</h1><p>Nothing was changed. Try again.</p>`);
}

/** A typed error a person can act on (its message names the field and the rule). */
export function cannotView(user: Viewer, message: string): Html {
  return layout(
    'Cannot do that',
    user,
    html`<h1>Cannot do that</h1><p class="error" role="alert">${message}</p><p><a href="/">Back to your bindings</a></p>`,
  );
}

/** A diff the diff gate turned away. */
export function busyView(user: Viewer): Html {
  return layout('Busy', user, html`<h1>Busy</h1><p>Bindery is computing other comparisons right now. Try again in a few seconds.</p>`);
}
