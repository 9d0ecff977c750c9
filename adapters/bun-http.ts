#!/usr/bin/env bun
// Bun HTTP adapter (`bun run serve`): Elysia mounts the runtime-neutral HTTP app from core/http on
// BINDERY_HTTP_HOST:PORT. Everything MCP, auth and routing lives in core/http; this file only opens
// the runtime, listens and shuts down.
import { Elysia } from 'elysia';
import { createHttpApp, type HttpApp } from '../core/http/app.ts';
import { openRuntime } from './runtime.ts';
import { drainHttp, onTerminate } from './shutdown.ts';

/** The header carrying the socket's address from Elysia's hook to the app (never trusted from a client). */
const CLIENT_ADDRESS = 'x-bindery-client-address';

export interface RunningHttp {
  url: string;
  app: HttpApp;
  /** Stops taking requests, answers those in flight (bounded), closes sessions and the database. */
  stop(): Promise<void>;
}

/** Starts the HTTP server; `PORT=0` picks a free port (the URL says which). */
export async function startHttp(env: Record<string, string | undefined> = process.env): Promise<RunningHttp> {
  const { deps, config, database } = await openRuntime(env, { upkeep: true });
  const app = createHttpApp({ deps, clientAddress: (request) => request.headers.get(CLIENT_ADDRESS) ?? undefined });
  // idleTimeout above the SDK's 15 s SSE keep-alive, so open GET streams are not cut. `mount` hands the
  // app a copy of the request, on which Bun's requestIP no longer answers: the socket's address rides
  // in a header set here on every request, so a client's own header of that name is overwritten.
  const elysia = new Elysia({ serve: { idleTimeout: 60 } })
    .onRequest(({ request, server }) => void request.headers.set(CLIENT_ADDRESS, server?.requestIP(request)?.address ?? ''))
    .mount(app.fetch)
    .listen({ hostname: config.http.host, port: config.port });
  const host = elysia.server?.hostname ?? config.http.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${elysia.server?.port}`;
  deps.log?.info(
    `HTTP ready on ${url}/mcp (${config.http.stateless ? 'stateless' : 'sessions'}, ${config.dbUrl.replace(/\?.*$/, '')}, public URL ${config.publicUrl})`,
  );
  return {
    url,
    app,
    async stop() {
      await drainHttp(elysia.server ?? undefined, app);
      await app.close();
      database.close();
    },
  };
}

if (import.meta.main) {
  try {
    const running = await startHttp();
    onTerminate(
      () => running.stop(),
      (line) => process.stderr.write(`[bindery] ${line}\n`),
    );
  } catch (err) {
    process.stderr.write(`[bindery] failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
