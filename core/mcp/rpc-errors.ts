import { BinderyRpcCode, RpcError } from '../protocol/rpc-error.ts';
import { clip } from '../clip.ts';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { BinderyError } from '../errors.ts';
import type { Logger } from '../context.ts';

/** JSON-RPC code for an unknown resource (MCP spec, resources/read). */
export const RESOURCE_NOT_FOUND = BinderyRpcCode.ResourceNotFound;

/** One answer for a binding URI that is missing, deleted, or not readable by the caller: they look the same. */
export function resourceNotFound(uri: string): McpError {
  return new RpcError(RESOURCE_NOT_FOUND, `Resource not found: ${clip(uri, 300)} (it does not exist or you may not read it)`, {
    uri: clip(uri, 300),
  });
}

/**
 * A failure of a resources, prompts or completions request as a JSON-RPC error: bad input is
 * InvalidParams naming the argument and the rule, anything unexpected is logged and answered without
 * internals (as the tool error mapper does).
 */
export function toMcpError(err: unknown, log: Logger, what: string): McpError {
  if (err instanceof McpError) return err;
  if (err instanceof BinderyError && err.code !== 'INTERNAL') return new RpcError(ErrorCode.InvalidParams, err.message);
  log.error(`${what} failed`, err);
  return new RpcError(ErrorCode.InternalError, `${what} failed on the server; retry once, and report it if it persists`);
}
