// `bun run start` on a terminal: with stdin a TTY the stdio server says in one line on
// stderr what it waits for and how to connect a client; over pipes (a real client) it adds nothing.
// The terminal is a real pseudo-TTY made by util-linux `script`.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { terminalHint } from '../../adapters/stdio.ts';
import { startStdioServer } from '../stdio-client.ts';
import { ROOT } from '../../support/targets.ts';

const dir = mkdtempSync(join(tmpdir(), 'bindery-tty-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hasScript = Bun.spawnSync(['sh', '-c', 'command -v script']).exitCode === 0;

describe('the stdio server on a terminal', () => {
  test.skipIf(!hasScript)(
    'on a pseudo-TTY it prints one line naming the database and bindery connect, and Ctrl-D ends it',
    async () => {
      const dbUrl = `file:${join(dir, 'tty.db')}`;
      const cmd = `${process.execPath} ${join(ROOT, 'adapters', 'stdio.ts')}`;
      const proc = Bun.spawn(['script', '-q', '-e', '-c', cmd, '/dev/null'], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', HOME: dir, BINDERY_DB_URL: dbUrl },
        stdin: 'pipe',
        stdout: 'pipe',
        stderr: 'pipe',
      });
      let seen = '';
      const reader = proc.stdout.getReader();
      while (!seen.includes('stdio ready')) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += new TextDecoder().decode(value);
      }
      proc.stdin.write('\x04');
      await proc.stdin.end();
      expect(await proc.exited).toBe(0);
      const hints = seen.split(/\r?\n/).filter((l) => l.startsWith('bindery: MCP server on stdio'));
      expect(hints).toEqual([terminalHint(true, dbUrl)!]);
      expect(hints[0]).toContain(`database ${dbUrl}`);
      expect(hints[0]).toContain('bindery connect claude-desktop');
    },
    30_000,
  );

  test('over pipes (an MCP client) it says nothing of the kind', async () => {
    const server = await startStdioServer();
    try {
      expect((await server.client.listTools()).tools.length).toBeGreaterThan(0);
      expect(server.stderr()).toContain('stdio ready');
      expect(server.stderr()).not.toContain('this is for an MCP client');
    } finally {
      await server.close();
    }
  }, 30_000);

  test('the decision: a line only when stdin is a TTY', () => {
    expect(terminalHint(false, 'file:x.db')).toBeUndefined();
    expect(terminalHint(undefined, 'file:x.db')).toBeUndefined();
    expect(terminalHint(true, 'file:x.db')).toContain('database file:x.db');
  });
});
