// Every `bindery` command parses its arguments strictly (adapters/cli/args.ts): an unknown option is a
// usage error (exit 2) that names the option and shows the command's usage line.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { parseCommand, UsageError } from '../../adapters/cli/args.ts';

const ROOT = join(import.meta.dir, '..', '..');
const USAGE = 'usage: bindery thing <dir> [--space <slug>] [--dry]';
const OPTIONS = { space: { type: 'string', needs: 'a space slug' }, dry: { type: 'boolean' } } as const;

function usageOf(args: string[], positionals = true): UsageError {
  try {
    parseCommand('thing', USAGE, args, OPTIONS, { positionals });
  } catch (e) {
    if (e instanceof UsageError) return e;
    throw e;
  }
  throw new Error(`no usage error for ${JSON.stringify(args)}`);
}

describe('parseCommand', () => {
  test('reads options in any order, --name=value and positionals (a lone - included)', () => {
    expect(parseCommand('thing', USAGE, ['d', '--space', 'team', '--dry'], OPTIONS)).toEqual({
      values: { space: 'team', dry: true },
      positionals: ['d'],
    });
    expect(parseCommand('thing', USAGE, ['--space=team', '-'], OPTIONS)).toEqual({ values: { space: 'team' }, positionals: ['-'] });
    expect(parseCommand('thing', USAGE, ['--', '--dry'], OPTIONS)).toEqual({ values: {}, positionals: ['--dry'] });
  });

  test.each([
    [['--frob'], 'bindery thing: unknown option --frob'],
    [['-x'], 'bindery thing: unknown option -x'],
    [['d', '--space'], 'bindery thing: --space needs a space slug'],
    [['--space', '--dry'], 'bindery thing: --space needs a space slug'],
    [['--dry=yes'], 'bindery thing: --dry takes no value'],
  ])('%j is a usage error: %s', (args, message) => {
    const e = usageOf(args);
    expect(e.exitCode).toBe(2);
    expect(e.message).toBe(`${message}\n${USAGE}`);
  });

  test('positionals are refused where a command takes none', () => {
    expect(usageOf(['stray'], false).message).toBe(`bindery thing: unexpected argument "stray"\n${USAGE}`);
  });

  test('--help and -h ask for the usage (exit 0), but not after --', () => {
    expect(usageOf(['--help'])).toMatchObject({ exitCode: 0, message: USAGE });
    expect(usageOf(['d', '-h'])).toMatchObject({ exitCode: 0, message: USAGE });
    expect(parseCommand('thing', USAGE, ['--', '-h'], OPTIONS).positionals).toEqual(['-h']);
  });
});

describe('bindery <command> --frobnicate', () => {
  const commands = ['stdio', 'serve', 'migrate', 'import', 'export', 'measure', 'lock', 'keys', 'login-link', 'help', 'dump', 'restore'];
  test.each(commands)('%s refuses it with exit 2, naming the option and the usage line', (command) => {
    const r = Bun.spawnSync(['bun', 'adapters/cli.ts', command, '--frobnicate'], {
      cwd: ROOT,
      env: { ...process.env, BINDERY_DB_URL: ':memory:' },
    });
    const stderr = r.stderr.toString();
    expect({ code: r.exitCode, stdout: r.stdout.toString() }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toContain(`bindery ${command}: unknown option --frobnicate\n`);
    expect(stderr).toMatch(new RegExp(`\\nusage: bindery ${command}\\b`));
  });
});
