// `bindery measure [--json] [--timeout <s>] [--always a,b] [-- <command> <args>…]`: the token cost of
// tool definitions. Without a command it measures Bindery in-process; with one it starts that MCP
// server over stdio, lists its tools (all pages) and measures what its tools/list costs.
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createRegistry, createTiktokenCounter, parseConfig, SERVER_NAME, SERVER_VERSION } from '../../core/index.ts';
import { binderyMeasureInput, foreignMeasureInput, formatMeasureReport, measureTools } from '../../core/footprint/measure.ts';
import { listRemoteTools, MeasureError } from '../../core/footprint/remote.ts';
import { parseCommand, usageError } from './args.ts';

const USAGE = 'usage: bindery measure [--json] [--timeout <seconds>] [--always <tool,tool>] [-- <command> <args>…]';
const STDERR_TAIL = 2_000;

export async function main(args: string[]): Promise<number> {
  const dash = args.indexOf('--');
  const own = dash >= 0 ? args.slice(0, dash) : args;
  const command = dash >= 0 ? args.slice(dash + 1) : [];
  // The command after `--` is not ours to parse: only the options before it are.
  const { values } = parseCommand(
    'measure',
    USAGE,
    own,
    {
      json: { type: 'boolean' },
      timeout: { type: 'string', needs: 'a number of seconds' },
      always: { type: 'string', needs: 'a comma-separated list of tool names' },
    },
    { positionals: false },
  );
  const json = values.json === true;
  const timeoutArg = values.timeout ?? process.env.BINDERY_MEASURE_TIMEOUT;
  const timeoutMs = timeoutArg === undefined ? 15_000 : Number(timeoutArg) * 1000;
  if (!(timeoutMs > 0)) usageError('measure', USAGE, '--timeout must be a positive number of seconds');
  if (dash >= 0 && command.length === 0) usageError('measure', USAGE, 'give a command after --');
  const config = parseConfig(process.env);
  const tokens = createTiktokenCounter(config.tokenizer);
  await tokens.load();
  const registry = createRegistry();
  let input;
  if (command.length === 0) {
    input = { ...binderyMeasureInput(registry, config), server: { name: SERVER_NAME, version: SERVER_VERSION } };
  } else {
    const label = `\`${command.map((a) => (/^[\w./:=@%+-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ')}\``;
    let stderr = '';
    const transport = new StdioClientTransport({
      command: command[0]!,
      args: command.slice(1),
      env: process.env as Record<string, string>,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL)));
    let pid: number | null = null;
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      pid = transport.pid;
    };
    const abort = () => {
      try {
        if (pid) process.kill(pid, 'SIGKILL');
      } catch {
        // it exited already
      }
      pid = null;
    };
    try {
      const remote = await listRemoteTools(transport, { timeoutMs, label, stderrTail: () => stderr, abort });
      input = foreignMeasureInput(remote.server, remote.tools, registry, (values.always ?? '').split(',').filter(Boolean));
    } catch (e) {
      console.error(`bindery measure: ${e instanceof MeasureError ? e.message : `failed: ${e instanceof Error ? e.message : String(e)}`}`);
      return 1;
    }
  }
  const report = measureTools(input, tokens);
  process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : formatMeasureReport(report));
  return 0;
}
