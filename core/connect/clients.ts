// What `bindery connect` knows about each MCP client: where its configuration file lives on each OS,
// under which key it lists servers, and how it spells a stdio and a remote (Streamable HTTP) server.
// Pure and runtime-neutral: paths come in as arguments (home, platform, APPDATA, cwd), so tests run on
// a fake HOME and any OS. The file I/O (merge, backup) is in adapters/cli/connect.ts.

/**
 * Joins path parts with `/` (this is core: no runtime's path module). Node and Bun accept `/` on
 * Windows too, and it is what `path.join` gave here before on every host but Windows itself.
 */
function joinPath(...parts: string[]): string {
  return parts.map((part, i) => (i === 0 ? part.replace(/[\\/]+$/, '') : part.replace(/^[\\/]+|[\\/]+$/g, ''))).join('/');
}

export type ClientName = 'claude-desktop' | 'claude-code' | 'cursor' | 'vscode' | 'windsurf' | 'gemini-cli';
export const CLIENTS: readonly ClientName[] = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf', 'gemini-cli'];

/** Where the process runs: the parts of the environment that decide a client's file. */
export interface Place {
  platform: string;
  home: string;
  cwd: string;
  appData?: string;
  xdgConfigHome?: string;
}

/** A local server: the exact command line a client runs, and its environment. */
export interface StdioTarget {
  kind: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** A remote server: its /mcp URL, with a bearer key (or none: the client signs in with OAuth). */
export interface RemoteTarget {
  kind: 'remote';
  url: string;
  key?: string;
}

export type Target = StdioTarget | RemoteTarget;

/** A remote Bindery's /mcp endpoint from what the user typed (a bare origin gets /mcp), or why it is not one. */
export function remoteEndpoint(url: string): { url: string } | { error: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { error: `--url must be an http(s) URL, got "${url}"` };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { error: `--url must be http(s), got "${parsed.protocol}"` };
  if (parsed.pathname === '/' || parsed.pathname === '') parsed.pathname = '/mcp';
  return { url: parsed.toString() };
}

/**
 * A local server's command line and environment: the database (already absolute), the tool mode, its
 * auth token for a remote database, and BINDERY_USER when the user set one.
 */
export function localTarget(
  run: { command: string; cli: string },
  dbUrl: string,
  mode: 'lazy' | 'eager',
  dbAuthToken: string | undefined,
  user: string | undefined,
): StdioTarget {
  const env: Record<string, string> = { BINDERY_DB_URL: dbUrl, BINDERY_TOOL_MODE: mode };
  if (dbAuthToken && !dbUrl.startsWith('file:')) env.BINDERY_DB_AUTH_TOKEN = dbAuthToken;
  if (user) env.BINDERY_USER = user;
  return { kind: 'stdio', command: run.command, args: [run.cli, 'stdio'], env };
}

interface ClientSpec {
  label: string;
  /** The JSON key that holds servers by name. */
  key: 'mcpServers' | 'servers';
  /** The file `--write` merges into. */
  file(place: Place): string;
  /** What the file says about a server under its name. */
  entry(target: Target): Record<string, unknown>;
  /** The name the client gives in initialize's clientInfo (what `auto` mode matches). */
  clientInfo: string;
}

const bearer = (key: string) => `Bearer ${key}`;

const plainStdio = (t: StdioTarget) => ({ command: t.command, args: t.args, env: t.env });

const SPECS: Record<ClientName, ClientSpec> = {
  'claude-desktop': {
    label: 'Claude Desktop',
    key: 'mcpServers',
    file: (p) =>
      p.platform === 'darwin'
        ? joinPath(p.home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json')
        : p.platform === 'win32'
          ? joinPath(p.appData ?? joinPath(p.home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json')
          : joinPath(p.xdgConfigHome ?? joinPath(p.home, '.config'), 'Claude', 'claude_desktop_config.json'),
    // Claude Desktop's file holds stdio servers only; a remote one goes through mcp-remote (which
    // signs in with OAuth itself when no header is given).
    entry: (t) =>
      t.kind === 'stdio'
        ? plainStdio(t)
        : t.key
          ? {
              command: 'npx',
              args: ['-y', 'mcp-remote', t.url, '--header', 'Authorization:${BINDERY_AUTH_HEADER}'],
              env: { BINDERY_AUTH_HEADER: bearer(t.key) },
            }
          : { command: 'npx', args: ['-y', 'mcp-remote', t.url] },
    clientInfo: 'claude-ai',
  },
  'claude-code': {
    label: 'Claude Code',
    key: 'mcpServers',
    file: (p) => joinPath(p.cwd, '.mcp.json'),
    entry: (t) =>
      t.kind === 'stdio'
        ? { type: 'stdio', ...plainStdio(t) }
        : { type: 'http', url: t.url, ...(t.key ? { headers: { Authorization: bearer(t.key) } } : {}) },
    clientInfo: 'claude-code',
  },
  cursor: {
    label: 'Cursor',
    key: 'mcpServers',
    file: (p) => joinPath(p.home, '.cursor', 'mcp.json'),
    entry: (t) => (t.kind === 'stdio' ? plainStdio(t) : { url: t.url, ...(t.key ? { headers: { Authorization: bearer(t.key) } } : {}) }),
    clientInfo: 'cursor-vscode',
  },
  vscode: {
    label: 'VS Code',
    key: 'servers',
    file: (p) => joinPath(p.cwd, '.vscode', 'mcp.json'),
    entry: (t) =>
      t.kind === 'stdio'
        ? { type: 'stdio', ...plainStdio(t) }
        : { type: 'http', url: t.url, ...(t.key ? { headers: { Authorization: bearer(t.key) } } : {}) },
    clientInfo: 'Visual Studio Code',
  },
  windsurf: {
    label: 'Windsurf',
    key: 'mcpServers',
    file: (p) => joinPath(p.home, '.codeium', 'windsurf', 'mcp_config.json'),
    entry: (t) =>
      t.kind === 'stdio' ? plainStdio(t) : { serverUrl: t.url, ...(t.key ? { headers: { Authorization: bearer(t.key) } } : {}) },
    clientInfo: 'windsurf-client',
  },
  'gemini-cli': {
    label: 'Gemini CLI',
    key: 'mcpServers',
    file: (p) => joinPath(p.home, '.gemini', 'settings.json'),
    entry: (t) =>
      t.kind === 'stdio' ? plainStdio(t) : { httpUrl: t.url, ...(t.key ? { headers: { Authorization: bearer(t.key) } } : {}) },
    clientInfo: 'gemini-cli-mcp-client',
  },
};

/** The client's spec, or undefined for a name Bindery does not know. */
export function clientSpec(name: string): ClientSpec | undefined {
  return (CLIENTS as readonly string[]).includes(name) ? SPECS[name as ClientName] : undefined;
}

/**
 * The tool mode that suits a client: `lazy` (a short tools/list, search_tools adds the rest) for a
 * client known to apply tools/list_changed, `eager` (every tool from the start) for the others. The
 * same rule `auto` applies at run time to the name the client announces (core/modes/session.ts,
 * BINDERY_LIST_CHANGED_CLIENTS), written into the configuration so the user sees what they get.
 */
export function modeFor(name: ClientName, listChangedClients: readonly string[]): 'lazy' | 'eager' {
  const announced = SPECS[name].clientInfo.toLowerCase();
  return listChangedClients.some((c) => c && announced.includes(c.toLowerCase())) ? 'lazy' : 'eager';
}

/** The `claude mcp add` line for Claude Code (the other way to set it up, user-wide with --scope user). */
export function claudeMcpAdd(name: string, target: Target): string {
  const q = shellQuote;
  if (target.kind === 'remote') {
    const header = target.key ? ` --header ${q(`Authorization: ${bearer(target.key)}`)}` : '';
    return `claude mcp add --transport http --scope user ${q(name)} ${q(target.url)}${header}`;
  }
  const env = Object.entries(target.env)
    .map(([k, v]) => ` -e ${q(`${k}=${v}`)}`)
    .join('');
  return `claude mcp add --scope user${env} ${q(name)} -- ${[target.command, ...target.args].map(q).join(' ')}`;
}

/** Quotes for a POSIX shell when needed. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Why a client's file cannot be merged into, or undefined when it can (an absent file can). */
export function unmergeable(text: string | undefined, key: string): string | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return `it is not valid JSON (${err instanceof Error ? err.message : String(err)}); comments and trailing commas count as invalid here`;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return 'its top level is not a JSON object';
  const servers = (parsed as Record<string, unknown>)[key];
  if (servers !== undefined && (!servers || typeof servers !== 'object' || Array.isArray(servers)))
    return `its "${key}" is not a JSON object`;
  return undefined;
}

/**
 * The file's text with `entry` set under `key`.`name`, every other key and server left as it was.
 * `changed` is false when the file already says exactly that. Call `unmergeable` first.
 */
export function mergeServer(
  text: string | undefined,
  key: string,
  name: string,
  entry: Record<string, unknown>,
): { text: string; changed: boolean; replaced: boolean } {
  const config = (text?.trim() ? JSON.parse(text) : {}) as Record<string, unknown>;
  const servers = { ...((config[key] as Record<string, unknown> | undefined) ?? {}) };
  const before = servers[name];
  const same = before !== undefined && JSON.stringify(before) === JSON.stringify(entry);
  servers[name] = entry;
  return { text: `${JSON.stringify({ ...config, [key]: servers }, null, 2)}\n`, changed: !same, replaced: before !== undefined && !same };
}

/**
 * Why a `bindery connect` request cannot be served as given, or undefined: an unknown client, a server
 * name a client would not take, a key without a remote URL, a database for a remote server.
 */
export function connectRefusal(req: { client?: string; name: string; url?: string; key?: string; db?: string }): string | undefined {
  if (!req.client) return 'name the client';
  if (!clientSpec(req.client)) return `unknown client "${req.client}" (known: ${CLIENTS.join(', ')})`;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(req.name)) return '--name must be 1-64 letters, digits, _ or -';
  if (req.key && !req.url) return '--key goes with --url (a local server needs no key)';
  if (req.url && req.db) return '--db is for a local server; a remote one has its own database';
  return undefined;
}
