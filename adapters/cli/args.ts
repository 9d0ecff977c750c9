// Strict argument parsing shared by every `bindery` command (node:util `parseArgs`): an unknown
// option, an option without its value or a stray argument is a usage error that names it, followed by
// the command's usage line; the dispatcher (adapters/cli.ts) prints it and exits 2. `--help`/`-h`
// prints the usage line and exits 0.
import { parseArgs } from 'node:util';

/** A usage error (exit 2), or the usage asked for with --help (exit 0, on stdout). */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly exitCode: 0 | 2 = 2,
  ) {
    super(message);
  }
}

/** One option: a string takes a value (`needs` says which, for the error when it is missing). */
export type OptionSpec = { type: 'string'; needs?: string } | { type: 'boolean' };

type Values<O extends Record<string, OptionSpec>> = { [K in keyof O]?: O[K]['type'] extends 'string' ? string : boolean };

/** Throws the usage error for `command`: why (when given), then the usage line. */
export function usageError(command: string, usage: string, why?: string): never {
  throw new UsageError(why ? `bindery ${command}: ${why}\n${usage}` : usage);
}

/**
 * Parses `args` strictly against `options`: values by option name, and the positional arguments
 * (everything after a lone `--` is positional too). Every failure is a UsageError.
 */
export function parseCommand<const O extends Record<string, OptionSpec>>(
  command: string,
  usage: string,
  args: readonly string[],
  options: O,
  { positionals: allowPositionals = true }: { positionals?: boolean } = {},
): { values: Values<O>; positionals: string[] } {
  if (args.includes('--help') || args.includes('-h')) {
    const end = args.indexOf('--');
    const at = Math.max(args.indexOf('--help'), args.indexOf('-h'));
    if (end < 0 || at < end) throw new UsageError(usage, 0);
  }
  const config: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const [name, spec] of Object.entries(options)) config[name] = { type: spec.type };
  try {
    const { values, positionals } = parseArgs({ args: [...args], options: config, allowPositionals, strict: true });
    return { values: values as Values<O>, positionals };
  } catch (err) {
    return usageError(command, usage, describe(err, options));
  }
}

/** parseArgs's error said plainly, naming the option or argument. */
function describe(err: unknown, options: Record<string, OptionSpec>): string {
  const e = err as { code?: string; message?: string };
  const named = /'([^' ]+)/.exec(e.message ?? '')?.[1] ?? '';
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${named}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument "${named}"`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const spec = options[named.replace(/^--?/, '')];
      if (spec?.type === 'boolean') return `${named} takes no value`;
      return `${named} needs ${spec && 'needs' in spec && spec.needs ? spec.needs : 'a value'}`;
    }
    default:
      return e.message ?? String(err);
  }
}
