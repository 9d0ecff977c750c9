// `bindery serve`: the HTTP server (same as `bun run serve`), kept running.
import { startHttp } from '../bun-http.ts';
import { onTerminate } from '../shutdown.ts';
import { parseCommand } from './args.ts';

export async function main(args: string[] = []): Promise<number> {
  parseCommand('serve', 'usage: bindery serve   (PORT and BINDERY_* from the environment)', args, {}, { positionals: false });
  const running = await startHttp();
  onTerminate(
    () => running.stop(),
    (line) => process.stderr.write(`[bindery] ${line}\n`),
  );
  return -1;
}
