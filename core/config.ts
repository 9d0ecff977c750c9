import { TOKENIZERS, type TokenizerName } from './tokens/counter.ts';
import { parseObserveConfig, type ObserveConfig } from './observe/telemetry.ts';

export type ToolMode = 'eager' | 'lazy' | 'proxy' | 'auto';
export const TOOL_MODES: readonly ToolMode[] = ['eager', 'lazy', 'proxy', 'auto'];

/** Everything the core needs to know about its environment, resolved once by an adapter. */
export interface BinderyConfig {
  dbUrl: string;
  dbAuthToken?: string;
  toolMode: ToolMode;
  alwaysTools: string[];
  maxEnabledTools: number;
  publicUrl: string;
  tokenizer: TokenizerName;
  maxResponseTokens: number;
  maxContentBytes: number;
  user: string;
  port: number;
  /** Client names (substring, case-insensitive) known to apply tools/list_changed; `auto` goes lazy for them. */
  listChangedClients: string[];
  riskThresholds: { low: number; medium: number; high: number };
  /** The HTTP surface (`bun run serve`, the edge handler). */
  http: HttpConfig;
  /** /metrics and JSON request logs (BINDERY_METRICS_TOKEN, BINDERY_LOG_FORMAT). */
  observe?: ObserveConfig;
  /** Optional embedding re-ranker (BINDERY_EMBEDDINGS_URL, _MODEL, _KEY, _WEIGHT); absent = off. */
  embeddings?: EmbeddingsConfig;
}

/** An OpenAI-compatible `/v1/embeddings` endpoint whose vectors re-rank search's lexical candidates. */
export interface EmbeddingsConfig {
  /** The API base (`…/v1`) or the embeddings endpoint itself. */
  url: string;
  model: string;
  key?: string;
  /** Weight of the cosine similarity against the lexical score (which is 1 at the best hit). */
  weight: number;
}

/** HTTP settings: sessions, DNS-rebinding allow-lists, body limit, CORS. */
export interface HttpConfig {
  /** Interface `bun run serve` binds to. */
  host: string;
  /** One server per request, always eager, no Mcp-Session-Id (BINDERY_HTTP_STATELESS=1). */
  stateless: boolean;
  sessionIdleMs: number;
  maxSessions: number;
  /** Sessions one key's user may hold; past it the user's own least recently used idle one is ended. */
  maxSessionsPerKey: number;
  maxBodyBytes: number;
  /** Allowed Host names (port ignored); `*` allows any. Loopback and the public URL's host by default. */
  allowedHosts: string[];
  /** Allowed Origin values (scheme://host[:port]); `*` allows any. Loopback and the public URL's origin by default. */
  allowedOrigins: string[];
  /** Origins that get CORS headers; empty = CORS off. */
  corsOrigins: string[];
}

export const DEFAULT_CONFIG: BinderyConfig = {
  dbUrl: 'file:./data/bindery.db',
  toolMode: 'auto',
  alwaysTools: ['search_bindings', 'get_binding', 'search_tools'],
  maxEnabledTools: 40,
  publicUrl: 'http://localhost:8787',
  tokenizer: 'o200k_base',
  maxResponseTokens: 25_000,
  maxContentBytes: 1_000_000,
  user: 'local',
  port: 8787,
  listChangedClients: ['visual studio code', 'vscode', 'copilot'],
  riskThresholds: { low: 1_000, medium: 4_000, high: 8_000 },
  http: {
    host: '127.0.0.1',
    stateless: false,
    sessionIdleMs: 30 * 60_000,
    maxSessions: 1_000,
    maxSessionsPerKey: 32,
    maxBodyBytes: 4 * 1024 * 1024,
    allowedHosts: ['localhost', '127.0.0.1', '[::1]'],
    allowedOrigins: [],
    corsOrigins: [],
  },
};

type Env = Record<string, string | undefined>;

function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${name}: must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return n;
}

function listVar(env: Env, name: string, fallback: string[]): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Reads configuration from an environment map (the adapter passes its process environment or a Worker's env). */
export function parseConfig(env: Env): BinderyConfig {
  const mode = (env.BINDERY_TOOL_MODE || DEFAULT_CONFIG.toolMode) as ToolMode;
  if (!TOOL_MODES.includes(mode)) throw new Error(`BINDERY_TOOL_MODE: must be one of ${TOOL_MODES.join(', ')} (got "${mode}")`);
  const tokenizer = (env.BINDERY_TOKENIZER || DEFAULT_CONFIG.tokenizer) as TokenizerName;
  if (!TOKENIZERS.includes(tokenizer)) throw new Error(`BINDERY_TOKENIZER: must be one of ${TOKENIZERS.join(', ')} (got "${tokenizer}")`);
  const d = DEFAULT_CONFIG;
  const port = intVar(env, 'PORT', d.port, 0, 65_535);
  // Without BINDERY_PUBLIC_URL the links point at the port this process serves on (PORT=9000 → :9000).
  const publicUrl = (env.BINDERY_PUBLIC_URL || `http://localhost:${port || d.port}`).replace(/\/+$/, '');
  return {
    dbUrl: env.BINDERY_DB_URL || env.TURSO_DATABASE_URL || d.dbUrl,
    dbAuthToken: env.BINDERY_DB_AUTH_TOKEN || env.TURSO_AUTH_TOKEN || undefined,
    toolMode: mode,
    alwaysTools: listVar(env, 'BINDERY_ALWAYS_TOOLS', d.alwaysTools),
    maxEnabledTools: intVar(env, 'BINDERY_MAX_ENABLED_TOOLS', d.maxEnabledTools, 1, 1000),
    publicUrl,
    tokenizer,
    maxResponseTokens: intVar(env, 'BINDERY_MAX_RESPONSE_TOKENS', d.maxResponseTokens, 1_000, 1_000_000),
    maxContentBytes: intVar(env, 'BINDERY_MAX_CONTENT_BYTES', d.maxContentBytes, 1_000, 100_000_000),
    user: env.BINDERY_USER || d.user,
    port,
    listChangedClients: listVar(env, 'BINDERY_LIST_CHANGED_CLIENTS', d.listChangedClients),
    riskThresholds: {
      low: intVar(env, 'BINDERY_RISK_LOW', d.riskThresholds.low, 1, 10_000_000),
      medium: intVar(env, 'BINDERY_RISK_MEDIUM', d.riskThresholds.medium, 1, 10_000_000),
      high: intVar(env, 'BINDERY_RISK_HIGH', d.riskThresholds.high, 1, 10_000_000),
    },
    http: parseHttpConfig(env, publicUrl),
    observe: parseObserveConfig(env),
    ...(env.BINDERY_EMBEDDINGS_URL ? { embeddings: parseEmbeddingsConfig(env) } : {}),
  };
}

function parseEmbeddingsConfig(env: Env): EmbeddingsConfig {
  const url = env.BINDERY_EMBEDDINGS_URL!.replace(/\/+$/, '');
  if (!/^https?:\/\//.test(url)) throw new Error(`BINDERY_EMBEDDINGS_URL: must be an http(s) URL (got "${url}")`);
  const model = env.BINDERY_EMBEDDINGS_MODEL;
  if (!model) throw new Error('BINDERY_EMBEDDINGS_MODEL: must name the model when BINDERY_EMBEDDINGS_URL is set');
  const weight = Number(env.BINDERY_EMBEDDINGS_WEIGHT ?? 1);
  if (!(weight >= 0 && weight <= 10))
    throw new Error(`BINDERY_EMBEDDINGS_WEIGHT: must be a number from 0 to 10 (got "${env.BINDERY_EMBEDDINGS_WEIGHT}")`);
  return { url, model, weight, ...(env.BINDERY_EMBEDDINGS_KEY ? { key: env.BINDERY_EMBEDDINGS_KEY } : {}) };
}

function parseHttpConfig(env: Env, publicUrl: string): HttpConfig {
  const d = DEFAULT_CONFIG.http;
  let publicOrigin: URL;
  try {
    publicOrigin = new URL(publicUrl);
  } catch {
    throw new Error(`BINDERY_PUBLIC_URL: must be an absolute URL (got "${publicUrl}")`);
  }
  const stateless = env.BINDERY_HTTP_STATELESS ?? '';
  if (!['', '0', '1', 'true', 'false'].includes(stateless)) throw new Error(`BINDERY_HTTP_STATELESS: must be 1 or 0 (got "${stateless}")`);
  const loopbackOrigins = d.allowedHosts.flatMap((h) => [`http://${h}`, `https://${h}`]);
  return {
    host: env.BINDERY_HTTP_HOST || d.host,
    stateless: stateless === '1' || stateless === 'true',
    sessionIdleMs: intVar(env, 'BINDERY_HTTP_SESSION_IDLE_SECONDS', d.sessionIdleMs / 1000, 1, 7 * 24 * 3600) * 1000,
    maxSessions: intVar(env, 'BINDERY_HTTP_MAX_SESSIONS', d.maxSessions, 1, 1_000_000),
    maxSessionsPerKey: intVar(env, 'BINDERY_HTTP_MAX_SESSIONS_PER_KEY', d.maxSessionsPerKey, 1, 1_000_000),
    maxBodyBytes: intVar(env, 'BINDERY_HTTP_MAX_BODY_BYTES', d.maxBodyBytes, 1_024, 1_073_741_824),
    allowedHosts: listVar(env, 'BINDERY_ALLOWED_HOSTS', [...d.allowedHosts, publicOrigin.hostname]),
    allowedOrigins: listVar(env, 'BINDERY_ALLOWED_ORIGINS', [...loopbackOrigins, publicOrigin.origin]),
    corsOrigins: listVar(env, 'BINDERY_CORS_ORIGINS', d.corsOrigins),
  };
}
