// `bindery serve`: the HTTP server (same as `bun run serve`), kept running.
import { startHttp } from '../bun-http.ts';
import { onTerminate } from '../shutdown.ts';

export async function main(): Promise<number> {
  const running = await startHttp();
  onTerminate(() => running.stop(), (line) => process.stderr.write(`[bindery] ${line}\n`));
  return -1;
}
