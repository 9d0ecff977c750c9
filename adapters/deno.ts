// Deno entry: `deno run -A adapters/deno.ts` serves the edge handler with Deno.serve on
// BINDERY_HTTP_HOST:PORT. A `file:` BINDERY_DB_URL opens the local libSQL file through
// npm:@libsql/client (native, Node-API); libsql:// and https:// go to Turso over HTTP.
import { createFetchHandler } from './edge';
import { createDatabase, migrate } from '../db/index';
import { parseConfig, stderrLogger } from '../core/index';

declare const Deno: {
  env: { toObject(): Record<string, string> };
  serve(options: { hostname: string; port: number; onListen?: (addr: { hostname: string; port: number }) => void }, handler: (request: Request) => Promise<Response>): unknown;
};

const env = Deno.env.toObject();
const config = parseConfig(env);
const log = stderrLogger((line) => console.error(line));
const local = config.dbUrl.startsWith('file:') || config.dbUrl === ':memory:' ? createDatabase({ url: config.dbUrl }) : undefined;
// A local file is migrated at start-up (never inside a request), like `bun run serve` does.
if (local) await migrate(local.db);
const handler = createFetchHandler({ env, log, database: () => local?.db });
Deno.serve({ hostname: config.http.host, port: config.port, onListen: (a) => log.info(`Deno edge handler on http://${a.hostname}:${a.port}/mcp (${config.dbUrl.replace(/\?.*$/, '')})`) }, (request) => handler(request));
