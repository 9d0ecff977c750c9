// `bindery serve`: the HTTP server (same as `bun run serve`), kept running.
import { startHttp } from '../bun-http.ts';

export async function main(): Promise<number> {
  const running = await startHttp();
  const stop = () => void running.stop().finally(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return -1;
}
