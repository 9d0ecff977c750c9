import type { BinderyConfig, EmbeddingsConfig } from '../config.ts';
import type { BinderyDb } from '../../db/types.ts';
import { bindingsWithoutVector, currentVectors, saveVectors } from '../../db/store/vectors.ts';
import { cosine, createEmbeddingProvider, embeddingText, type EmbeddingProvider } from '../search/embeddings.ts';

// Keeping stored vectors current and asking for a query's (optional: BINDERY_EMBEDDINGS_URL, docs/configuration.md). Writes embed the
// binding they wrote, best effort: a provider that is down never fails a write, the vector stays
// missing, and `bindery embed` (or the next write) fills it. Search never waits on a missing vector:
// candidates without one keep their lexical place.

interface EmbedDeps {
  db: BinderyDb;
  config: Pick<BinderyConfig, 'embeddings'>;
  now: () => number;
}

const providers = new WeakMap<EmbeddingsConfig, EmbeddingProvider>();

/** The configured provider (one per configuration), or undefined when embeddings are off. */
export function embeddingProvider(config: Pick<BinderyConfig, 'embeddings'>): EmbeddingProvider | undefined {
  const c = config.embeddings;
  if (!c) return undefined;
  let p = providers.get(c);
  if (!p) providers.set(c, (p = createEmbeddingProvider(c)));
  return p;
}

/** A write waits this long for its vector, then answers without it (`bindery embed` fills it later). */
const WRITE_TIMEOUT_MS = 3_000;
/** A search waits this long for the query's vector, then answers in lexical order. */
const QUERY_TIMEOUT_MS = 2_000;

/** Bindings embedded per provider call when catching up. */
const EMBED_BATCH = 32;

/**
 * Embeds the live bindings (of `only`, when given) whose current version lacks a vector for the
 * configured model; returns how many were embedded. Throws when the provider fails.
 */
export async function embedMissing(
  deps: EmbedDeps,
  opts: { only?: string[]; progress?: (done: number) => void; timeoutMs?: number } = {},
): Promise<number> {
  const provider = embeddingProvider(deps.config);
  if (!provider) return 0;
  let done = 0;
  for (;;) {
    const rows = await bindingsWithoutVector(deps.db, provider.model, EMBED_BATCH, opts.only);
    if (!rows.length) return done;
    const vectors = await provider.embed(rows.map(embeddingText), opts.timeoutMs);
    await saveVectors(
      deps.db,
      provider.model,
      rows.map((r, i) => ({ bindingId: r.bindingId, versionId: r.versionId, vector: vectors[i]! })),
      deps.now(),
    );
    done += rows.length;
    opts.progress?.(done);
    if (opts.only) return done;
  }
}

/** After a write: embeds the binding written, never failing the write (a missing vector is filled later). */
export async function embedWritten(deps: EmbedDeps, bindingId: string): Promise<void> {
  if (!deps.config.embeddings) return;
  await embedMissing(deps, { only: [bindingId], timeoutMs: WRITE_TIMEOUT_MS }).catch(() => undefined);
}

/**
 * The semantic scorer search hands to the re-ranker: the query's cosine with each candidate's stored
 * vector. Undefined when embeddings are off; a provider failure makes it answer nothing (lexical order).
 */
export function semanticScorer(deps: EmbedDeps, query: string): ((bindingIds: string[]) => Promise<Map<string, number>>) | undefined {
  const provider = embeddingProvider(deps.config);
  if (!provider) return undefined;
  return async (ids) => {
    try {
      const [[q], stored] = await Promise.all([provider.embed([query], QUERY_TIMEOUT_MS), currentVectors(deps.db, provider.model, ids)]);
      return new Map([...stored].map(([id, v]) => [id, cosine(q!, v)]));
    } catch {
      return new Map();
    }
  };
}
