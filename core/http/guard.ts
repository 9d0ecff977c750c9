import type { HttpConfig } from '../config.ts';

/** Does an allow-list entry (`host` or `scheme://host[:port]`, or `*`) admit this origin? Entries without a port admit any port. */
function originAllowed(list: readonly string[], origin: string): boolean {
  if (list.includes('*') || list.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return list.some((entry) => {
    try {
      const e = new URL(entry);
      return !e.port && e.protocol === url.protocol && e.hostname === url.hostname;
    } catch {
      return false;
    }
  });
}

/** The Host header's name without the port, or undefined when it is not a host. */
function hostName(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * DNS-rebinding protection: the Host must be an allowed name and an Origin, when a browser sends one,
 * an allowed origin (CORS origins count as allowed). Returns the reason to refuse, or undefined.
 */
export function checkHostAndOrigin(http: HttpConfig, request: Request): string | undefined {
  const host = request.headers.get('host') ?? new URL(request.url).host;
  const name = hostName(host);
  if (!http.allowedHosts.includes('*') && (!name || !http.allowedHosts.includes(name)))
    return `Host "${host}" is not allowed (BINDERY_ALLOWED_HOSTS)`;
  const origin = request.headers.get('origin');
  if (origin !== null && !originAllowed(http.allowedOrigins, origin) && !originAllowed(http.corsOrigins, origin)) {
    return `Origin "${origin}" is not allowed (BINDERY_ALLOWED_ORIGINS)`;
  }
  return undefined;
}

const CORS_HEADERS = 'Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID';

/** CORS response headers for this request's Origin, when CORS is on and the origin is listed. */
export function corsHeaders(http: HttpConfig, request: Request): Record<string, string> {
  const origin = request.headers.get('origin');
  if (!origin || http.corsOrigins.length === 0 || !originAllowed(http.corsOrigins, origin)) return {};
  return {
    'Access-Control-Allow-Origin': http.corsOrigins.includes('*') ? '*' : origin,
    'Access-Control-Allow-Methods': 'GET, POST, PATCH, DELETE, OPTIONS',
    'Access-Control-Allow-Headers': CORS_HEADERS,
    'Access-Control-Expose-Headers': 'Mcp-Session-Id, WWW-Authenticate',
    'Access-Control-Max-Age': '600',
    Vary: 'Origin',
  };
}

export type BodyResult = { ok: true; text: string } | { ok: false; tooLarge: boolean };

/** Past the limit the rest of a body is read and dropped (so the client sees the 413, not a reset), up to this many times the limit. */
const DRAIN_FACTOR = 8;

/** Reads a request body, refusing it past `limit` bytes (declared Content-Length or counted while streaming). */
export async function readBodyLimited(request: Request, limit: number): Promise<BodyResult> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit * DRAIN_FACTOR) {
    await request.body?.cancel().catch(() => {});
    return { ok: false, tooLarge: true };
  }
  if (!request.body) return { ok: true, text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit * DRAIN_FACTOR) {
        await reader.cancel().catch(() => {});
        break;
      }
      if (size <= limit && !(declared > limit)) chunks.push(value);
    }
  } catch {
    return { ok: false, tooLarge: false };
  }
  if (size > limit) return { ok: false, tooLarge: true };
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return { ok: true, text: new TextDecoder().decode(all) };
}
