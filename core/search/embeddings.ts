import type { EmbeddingsConfig } from '../config.ts';

// The optional embedding provider (issue 15): any OpenAI-compatible `/v1/embeddings` endpoint (OpenAI,
// Ollama, LM Studio, vLLM, a Workers AI gateway). Off unless BINDERY_EMBEDDINGS_URL is set. Only
// `fetch` is used, so it runs wherever the core does.

export interface EmbeddingProvider {
  model: string;
  /** One unit-length vector per text, in order. Throws on any provider failure (or past `timeoutMs`). */
  embed(texts: string[], timeoutMs?: number): Promise<Float32Array[]>;
}

/** Texts per request: providers cap a batch (OpenAI: 2048 inputs); small batches keep a failure cheap. */
const BATCH = 64;
/** A provider that does not answer a batch within this is treated as down (search asks with a shorter limit). */
const TIMEOUT_MS = 10_000;

/** The endpoint for a configured URL: the API base (`…/v1`) gets `/embeddings` appended. */
export function embeddingsEndpoint(url: string): string {
  return /\/embeddings$/.test(url) ? url : `${url}/embeddings`;
}

/** A provider for the configuration (`fetchImpl` for tests and runtimes that pass their own). */
export function createEmbeddingProvider(config: EmbeddingsConfig, fetchImpl: typeof fetch = fetch): EmbeddingProvider {
  const endpoint = embeddingsEndpoint(config.url);
  async function batch(input: string[], timeoutMs: number): Promise<Float32Array[]> {
    const res = await fetchImpl(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(config.key ? { authorization: `Bearer ${config.key}` } : {}) },
      body: JSON.stringify({ model: config.model, input, encoding_format: 'float' }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new Error(`embeddings provider answered ${res.status} ${res.statusText}`.trim());
    const body = (await res.json()) as { data?: { index?: number; embedding?: unknown }[] };
    const data = Array.isArray(body.data) ? body.data : [];
    if (data.length !== input.length) throw new Error(`embeddings provider returned ${data.length} vectors for ${input.length} texts`);
    const out: Float32Array[] = new Array(input.length);
    data.forEach((d, i) => {
      const at = typeof d.index === 'number' ? d.index : i;
      if (!Array.isArray(d.embedding) || !d.embedding.length || !d.embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new Error('embeddings provider returned a vector that is not a list of numbers');
      }
      out[at] = normalize(Float32Array.from(d.embedding as number[]));
    });
    if (out.some((v) => !v)) throw new Error('embeddings provider returned vectors with missing indexes');
    return out;
  }
  return {
    model: config.model,
    async embed(texts, timeoutMs = TIMEOUT_MS) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += BATCH) out.push(...(await batch(texts.slice(i, i + BATCH), timeoutMs)));
      return out;
    },
  };
}

/** The vector scaled to unit length (cosine is then a dot product). */
export function normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

/** Cosine of two unit vectors (0 when their dimensions differ: another model's vector). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Characters of content embedded after name, summary and key points (providers cap inputs near 8k tokens). */
export const EMBED_CONTENT_CHARS = 6_000;

/** What is embedded for a version: what it says it is about, then the start of its content. */
export function embeddingText(v: { name: string; summary: string; keyPoints: string[]; content: string }): string {
  return [v.name, v.summary, ...v.keyPoints, v.content.slice(0, EMBED_CONTENT_CHARS)].filter(Boolean).join('\n');
}
