import type { Logger } from '../context.ts';

/**
 * The logger for BINDERY_LOG_FORMAT=json: every line on stderr is then one JSON object (the request
 * lines and these), so a log pipeline never meets a line it cannot parse. Errors keep their stack.
 */
export function jsonLogger(write: (line: string) => void): Logger {
  const line = (level: string, msg: string, extra: unknown) => {
    const detail = extra === undefined ? {} : { detail: extra instanceof Error ? (extra.stack ?? extra.message) : extra };
    let text: string;
    try {
      text = JSON.stringify({ time: new Date().toISOString(), level, msg, ...detail });
    } catch {
      text = JSON.stringify({ time: new Date().toISOString(), level, msg, detail: String(extra) });
    }
    write(text);
  };
  return { info: (m, e) => line('info', m, e), warn: (m, e) => line('warn', m, e), error: (m, e) => line('error', m, e) };
}
