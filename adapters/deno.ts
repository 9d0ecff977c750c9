// Deno entry: `deno run -A adapters/deno.ts` serves the edge handler with Deno.serve on
// BINDERY_HTTP_HOST:PORT. A `file:` BINDERY_DB_URL opens the local libSQL file through
// npm:@libsql/client (native, Node-API; loaded only then, so Deno Deploy never needs it) and is
// migrated at start-up, never inside a request; libsql:// and https:// go to Turso over HTTP.
import { createFetchHandler } from './edge.ts';
import { migrate } from '../db/migrate.ts';
import { parseConfig, stderrLogger } from '../core/index.ts';
import type { BinderyDb } from '../db/types.ts';

declare const Deno: {
  env: { toObject(): Record<string, string> };
  serve(
    options: { hostname: string; port: number; onListen?: (addr: { hostname: string; port: number }) => void },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
};

const env = Deno.env.toObject();
const config = parseConfig(env);
const log = stderrLogger((line) => console.error(line));
let local: BinderyDb | undefined;
if (config.dbUrl.startsWith('file:') || config.dbUrl === ':memory:') {
  const { createDatabase } = await import('../db/client.ts');
  local = createDatabase({ url: config.dbUrl }).db;
  await migrate(local);
}
const handler = createFetchHandler({ env, log, database: () => local });
const onListen = (a: { hostname: string; port: number }) =>
  log.info(`Deno edge handler on http://${a.hostname}:${a.port}/mcp (${config.dbUrl.replace(/\?.*$/, '')})`);
Deno.serve({ hostname: config.http.host, port: config.port, onListen }, (request) => handler(request));
