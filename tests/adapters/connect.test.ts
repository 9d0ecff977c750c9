// `bindery connect`: the real CLI run with a fake HOME and working folder in a temp dir.
// It prints each client's configuration with absolute paths and the mode that suits the client;
// --write merges into the client's file (other servers and keys kept, a backup beside it), refuses a
// file that is not JSON, and what it writes starts a server a real MCP client can call.
import { afterAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { clientSpec, mergeServer, modeFor, unmergeable } from '../../core/connect/clients.ts';
import { absoluteDbUrl } from '../../adapters/cli/connect.ts';
import { DEFAULT_CONFIG } from '../../core/config.ts';
import { ROOT } from '../../support/targets.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A fake home and a working folder inside it. */
function world(): { home: string; cwd: string } {
  const home = mkdtempSync(join(tmpdir(), 'bindery-connect-'));
  dirs.push(home);
  const cwd = join(home, 'work');
  mkdirSync(cwd);
  return { home, cwd };
}

function connect(w: { home: string; cwd: string }, ...args: string[]): { code: number; out: string; err: string } {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: w.home };
  const p = Bun.spawnSync([process.execPath, join(ROOT, 'adapters', 'cli.ts'), 'connect', ...args], {
    cwd: w.cwd,
    env,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  return { code: p.exitCode ?? -1, out: p.stdout.toString(), err: p.stderr.toString() };
}

const desktopFile = (home: string) => join(home, '.config', 'Claude', 'claude_desktop_config.json');

describe('bindery connect prints a client configuration', () => {
  test('claude-desktop: absolute bun and CLI paths, an absolute database URL, eager mode, the file it reads named', () => {
    const w = world();
    const r = connect(w, 'claude-desktop');
    expect(r.code).toBe(0);
    const entry = JSON.parse(r.out).mcpServers.bindery;
    expect(isAbsolute(entry.command)).toBe(true);
    expect(existsSync(entry.command)).toBe(true);
    expect(entry.args).toEqual([join(ROOT, 'adapters', 'cli.ts'), 'stdio']);
    expect(entry.env).toEqual({ BINDERY_DB_URL: `file:${join(w.cwd, 'data', 'bindery.db')}`, BINDERY_TOOL_MODE: 'eager' });
    expect(r.err).toContain(desktopFile(w.home));
    expect(existsSync(desktopFile(w.home))).toBe(false);
  });

  test('vscode: servers (not mcpServers), type stdio, lazy mode (VS Code applies tools/list_changed)', () => {
    const w = world();
    const r = connect(w, 'vscode', '--db', 'notes.db');
    expect(r.code).toBe(0);
    const parsed = JSON.parse(r.out);
    expect(parsed.mcpServers).toBeUndefined();
    expect(parsed.servers.bindery.type).toBe('stdio');
    expect(parsed.servers.bindery.env).toEqual({ BINDERY_DB_URL: `file:${join(w.cwd, 'notes.db')}`, BINDERY_TOOL_MODE: 'lazy' });
    expect(r.err).toContain(join(w.cwd, '.vscode', 'mcp.json'));
  });

  test('claude-code: the claude mcp add line and the .mcp.json form', () => {
    const w = world();
    const r = connect(w, 'claude-code');
    expect(r.code).toBe(0);
    const [line, ...json] = r.out.split('\n');
    expect(line).toStartWith('claude mcp add --scope user -e BINDERY_DB_URL=file:');
    expect(line).toEndWith(`bindery -- ${process.execPath} ${join(ROOT, 'adapters', 'cli.ts')} stdio`);
    expect(JSON.parse(json.join('\n')).mcpServers.bindery.type).toBe('stdio');
  });

  test('a remote server: the /mcp URL with a bearer header, or no header for OAuth; Claude Desktop goes through mcp-remote', () => {
    const w = world();
    const keyed = JSON.parse(connect(w, 'cursor', '--url', 'https://notes.example.com', '--key', 'bk_secret').out).mcpServers.bindery;
    expect(keyed).toEqual({ url: 'https://notes.example.com/mcp', headers: { Authorization: 'Bearer bk_secret' } });
    const oauth = JSON.parse(connect(w, 'vscode', '--url', 'https://notes.example.com/mcp').out).servers.bindery;
    expect(oauth).toEqual({ type: 'http', url: 'https://notes.example.com/mcp' });
    const desktop = JSON.parse(connect(w, 'claude-desktop', '--url', 'https://notes.example.com/mcp', '--key', 'bk_secret').out).mcpServers
      .bindery;
    expect(desktop.args).toEqual(['-y', 'mcp-remote', 'https://notes.example.com/mcp', '--header', 'Authorization:${BINDERY_AUTH_HEADER}']);
    expect(desktop.env).toEqual({ BINDERY_AUTH_HEADER: 'Bearer bk_secret' });
  });

  test('bad input: an unknown client, a --key without --url, a URL that is not http(s) are usage errors naming the rule', () => {
    const w = world();
    const unknown = connect(w, 'notepad');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown client "notepad" (known: claude-desktop, claude-code, cursor, vscode, windsurf, gemini-cli)');
    expect(connect(w, 'cursor', '--key', 'k').err).toContain('--key goes with --url');
    expect(connect(w, 'cursor', '--url', 'ftp://x/mcp').err).toContain('--url must be http(s)');
  });
});

describe('bindery connect --write', () => {
  test('merges into an existing file: other servers and keys kept, the entry added, a backup of the old file beside it', () => {
    const w = world();
    const file = desktopFile(w.home);
    mkdirSync(dirname(file), { recursive: true });
    const original = JSON.stringify(
      { globalShortcut: 'Ctrl+Space', mcpServers: { memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } } },
      null,
      2,
    );
    writeFileSync(file, original);
    const r = connect(w, 'claude-desktop', '--write');
    expect(r.code).toBe(0);
    const merged = JSON.parse(readFileSync(file, 'utf8'));
    expect(merged.globalShortcut).toBe('Ctrl+Space');
    expect(merged.mcpServers.memory).toEqual({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] });
    expect(merged.mcpServers.bindery.args[1]).toBe('stdio');
    const backups = readdirSync(dirname(file)).filter((f) => f.endsWith('.bak'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(dirname(file), backups[0]!), 'utf8')).toBe(original);
    expect(r.err).toContain('added server "bindery"');

    // The same again changes nothing and makes no second backup; another --db replaces the entry.
    const again = connect(w, 'claude-desktop', '--write');
    expect(again.err).toContain('nothing changed');
    expect(readdirSync(dirname(file)).filter((f) => f.endsWith('.bak'))).toHaveLength(1);
    const moved = connect(w, 'claude-desktop', '--write', '--db', '/srv/other.db');
    expect(moved.err).toContain('replaced server "bindery"');
    expect(JSON.parse(readFileSync(file, 'utf8')).mcpServers.bindery.env.BINDERY_DB_URL).toBe('file:/srv/other.db');
    expect(JSON.parse(readFileSync(file, 'utf8')).mcpServers.memory).toBeDefined();
  });

  test('creates the file (and its folder) when the client has none yet, with no backup', () => {
    const w = world();
    const r = connect(w, 'cursor', '--write');
    expect(r.code).toBe(0);
    const file = join(w.home, '.cursor', 'mcp.json');
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).mcpServers)).toEqual(['bindery']);
    expect(readdirSync(dirname(file))).toEqual(['mcp.json']);
  });

  test('refuses a file that is not valid JSON (or whose servers key is not an object): says why, changes nothing, no backup', () => {
    const w = world();
    const file = join(w.cwd, '.vscode', 'mcp.json');
    mkdirSync(dirname(file), { recursive: true });
    const broken = '{\n  // my servers\n  "servers": {}\n}\n';
    writeFileSync(file, broken);
    const r = connect(w, 'vscode', '--write');
    expect(r.code).toBe(1);
    expect(r.err).toContain(`left ${file} unchanged: it is not valid JSON`);
    expect(readFileSync(file, 'utf8')).toBe(broken);
    expect(readdirSync(dirname(file))).toEqual(['mcp.json']);

    writeFileSync(file, '{"servers": []}');
    const wrong = connect(w, 'vscode', '--write');
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain('its "servers" is not a JSON object');
  });

  test('what --write puts in .mcp.json for claude-code starts a server a real client calls, on the database it names', async () => {
    const w = world();
    expect(connect(w, 'claude-code', '--write').code).toBe(0);
    const entry = JSON.parse(readFileSync(join(w.cwd, '.mcp.json'), 'utf8')).mcpServers.bindery;
    // As a client would: its own cwd (not the folder connect ran in), only the configured env and PATH.
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: { PATH: process.env.PATH ?? '', ...entry.env },
      cwd: w.home,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'claude-code', version: '2.0.0' });
    await client.connect(transport);
    const made = await client.callTool({
      name: 'create_binding',
      arguments: { name: 'Connected', content: 'It works.', summary: 'A first note.' },
    });
    expect(made.isError).toBeFalsy();
    expect((await client.listTools()).tools.length).toBe(29);
    await client.close();
    expect(existsSync(join(w.cwd, 'data', 'bindery.db'))).toBe(true);
  }, 30_000);
});

describe('connect, the pure parts', () => {
  test("Claude Desktop's file on macOS, Windows and Linux (XDG_CONFIG_HOME honoured)", () => {
    const spec = clientSpec('claude-desktop')!;
    expect(spec.file({ platform: 'darwin', home: '/Users/a', cwd: '/' })).toBe(
      '/Users/a/Library/Application Support/Claude/claude_desktop_config.json',
    );
    expect(spec.file({ platform: 'win32', home: '/h', cwd: '/', appData: '/h/AppData/Roaming' })).toBe(
      join('/h/AppData/Roaming', 'Claude', 'claude_desktop_config.json'),
    );
    expect(spec.file({ platform: 'linux', home: '/home/a', cwd: '/', xdgConfigHome: '/cfg' })).toBe(
      '/cfg/Claude/claude_desktop_config.json',
    );
  });

  test("the mode follows core's list of clients that apply tools/list_changed", () => {
    expect(modeFor('vscode', DEFAULT_CONFIG.listChangedClients)).toBe('lazy');
    expect(modeFor('claude-desktop', DEFAULT_CONFIG.listChangedClients)).toBe('eager');
    expect(modeFor('claude-code', DEFAULT_CONFIG.listChangedClients)).toBe('eager');
    expect(modeFor('claude-code', ['claude-code'])).toBe('lazy');
    expect(modeFor('vscode', [])).toBe('eager');
  });

  test('database URLs become absolute; remote ones and :memory: stay', () => {
    expect(absoluteDbUrl('file:./data/bindery.db', '/w')).toBe('file:/w/data/bindery.db');
    expect(absoluteDbUrl('notes.db', '/w')).toBe('file:/w/notes.db');
    expect(absoluteDbUrl('file:/abs/b.db', '/w')).toBe('file:/abs/b.db');
    expect(absoluteDbUrl('libsql://db.turso.io', '/w')).toBe('libsql://db.turso.io');
    expect(absoluteDbUrl(':memory:', '/w')).toBe(':memory:');
  });

  test('merging keeps key order and other entries; an empty file is a new one; a JSON array is refused', () => {
    const merged = mergeServer('{"a":1,"mcpServers":{"x":{}}}', 'mcpServers', 'bindery', { command: 'bun' });
    expect(JSON.parse(merged.text)).toEqual({ a: 1, mcpServers: { x: {}, bindery: { command: 'bun' } } });
    expect(merged).toMatchObject({ changed: true, replaced: false });
    expect(unmergeable('', 'mcpServers')).toBeUndefined();
    expect(unmergeable('[]', 'mcpServers')).toBe('its top level is not a JSON object');
  });
});
