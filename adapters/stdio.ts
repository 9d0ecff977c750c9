#!/usr/bin/env bun
// stdio adapter (`bun run start`): the local default. stdout carries only MCP messages; logs go to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createBinderyServer } from '../core/index';
import { ensureCaller } from '../core/services/prepare';
import { openRuntime } from './runtime';

/** Serves MCP over this process's stdin/stdout as BINDERY_USER. */
export async function runStdio(): Promise<void> {
  const { deps, config } = await openRuntime();
  const caller = await ensureCaller(deps, config.user);
  const server = createBinderyServer(deps, { caller });
  const transport = new StdioServerTransport();
  transport.onclose = () => process.exit(0);
  await server.connect(transport);
  deps.log?.info(`stdio ready as @${caller.handle} (${config.dbUrl}, mode ${config.toolMode}, ${config.tokenizer})`);
}

if (import.meta.main) {
  runStdio().catch((err) => {
    process.stderr.write(`[bindery] failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
