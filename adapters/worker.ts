// Cloudflare Workers entry: `export default { fetch }`. Storage is the D1 binding `DB` when bound,
// else BINDERY_DB_URL (+ BINDERY_DB_AUTH_TOKEN) for Turso over HTTP. Vars are BINDERY_* bindings.
// Migrations are applied ahead of time (see README), never inside a request.
import { createFetchHandler, type EdgeEnv } from './edge.ts';
import { createD1Database, type D1Like } from '../db/client-web.ts';

const handler = createFetchHandler({
  database: (env) => (env.DB ? createD1Database(env.DB as D1Like) : undefined),
  log: { info: (m) => console.log(m), warn: (m, e) => console.warn(m, e), error: (m, e) => console.error(m, e) },
});

export default {
  fetch: (request: Request, env: EdgeEnv): Promise<Response> => handler(request, env),
};
