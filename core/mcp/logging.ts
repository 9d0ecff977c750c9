import { RpcError } from '../protocol/rpc-error.ts';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, LoggingLevelSchema, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { clip } from '../clip.ts';
import type { Logger, ToolContext } from '../context.ts';

/**
 * logging/setLevel with the level checked here: the SDK's own schema would answer a bad level with an
 * internal error (-32603) and a zod dump; this answers InvalidParams naming `level` and the rule.
 */
const SetLevelLooseSchema = z.object({ method: z.literal('logging/setLevel'), params: z.looseObject({ level: z.unknown() }) });

const SEVERITY: Record<LoggingLevel, number> = { debug: 0, info: 1, notice: 2, warning: 3, error: 4, critical: 5, alert: 6, emergency: 7 };

/** Level sent before the client sets one: warnings and errors only (info lines would cost it tokens unasked). */
export const DEFAULT_CLIENT_LOG_LEVEL: LoggingLevel = 'warning';

/** What a log line's extra says to a client: an error's message, never its stack; other values as short JSON. */
function describe(extra: unknown): string {
  if (extra instanceof Error) return clip(extra.message, 500);
  try {
    return clip(JSON.stringify(extra) ?? String(extra), 500);
  } catch {
    return clip(String(extra), 500);
  }
}

/**
 * Declares `logging`, answers `logging/setLevel` for this session, and tees this session's log lines
 * (`ctx.log`: tool errors, notification failures, …) to the client as `notifications/message` at or
 * above the level. The process log (stderr) still gets every line, so stdout stays MCP only.
 */
export function registerLogging(server: Server, ctx: ToolContext): void {
  let level = DEFAULT_CLIENT_LOG_LEVEL;
  server.setRequestHandler(SetLevelLooseSchema, async (request) => {
    const parsed = LoggingLevelSchema.safeParse(request.params.level);
    if (!parsed.success) throw new RpcError(ErrorCode.InvalidParams, `level: must be one of ${Object.keys(SEVERITY).join(', ')}`);
    level = parsed.data;
    return {};
  });
  const base: Logger = ctx.log;
  const send = (at: LoggingLevel, msg: string, extra: unknown) => {
    if (SEVERITY[at] < SEVERITY[level] || !server.transport) return;
    const data = extra === undefined ? msg : { message: msg, detail: describe(extra) };
    // A line that cannot be delivered is dropped, never logged again (that would loop).
    void server.sendLoggingMessage({ level: at, logger: 'bindery', data }).catch(() => {});
  };
  ctx.log = {
    info: (m, e) => {
      base.info(m, e);
      send('info', m, e);
    },
    warn: (m, e) => {
      base.warn(m, e);
      send('warning', m, e);
    },
    error: (m, e) => {
      base.error(m, e);
      send('error', m, e);
    },
  };
}
