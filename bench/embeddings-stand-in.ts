// A stand-in for an OpenAI-compatible /v1/embeddings endpoint, for trying the optional embedding
// re-ranker without a model: hashed bag-of-words vectors (512 dimensions, sublinear counts, stop words
// left out). It knows no synonyms, so it is a weak, mostly lexical signal: the case in which fusion
// must not cost keyword lookups. Measure a real model the same way with its own URL and name:
//   bun bench/embeddings-stand-in.ts &      # serves http://127.0.0.1:8790/v1/embeddings
//   BINDERY_EMBEDDINGS_URL=http://127.0.0.1:8790/v1 BINDERY_EMBEDDINGS_MODEL=hashed-bow bun run bench everyday
import { STOP_WORDS } from '../db/text/analyzer.ts';

const DIMS = 512;

/** FNV-1a, for a word's dimension and sign. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export function hashedVector(text: string): number[] {
  const v = new Array<number>(DIMS).fill(0);
  const counts = new Map<string, number>();
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) if (!STOP_WORDS.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  for (const [w, n] of counts) {
    const h = hash(w);
    v[h % DIMS]! += (h & 0x80000000 ? -1 : 1) * (1 + Math.log(n));
  }
  return v;
}

/** Serves the stand-in on `port` (0: any free port); returns the server. */
export function serveStandIn(port = Number(process.env.PORT ?? 8790)) {
  return Bun.serve({
    port,
    hostname: '127.0.0.1',
    async fetch(req) {
      if (req.method !== 'POST' || !new URL(req.url).pathname.endsWith('/embeddings')) return new Response('not found', { status: 404 });
      const body = (await req.json()) as { model: string; input: string | string[] };
      const input = Array.isArray(body.input) ? body.input : [body.input];
      return Response.json({
        object: 'list',
        model: body.model,
        data: input.map((t, index) => ({ object: 'embedding', index, embedding: hashedVector(t) })),
      });
    },
  });
}

if (import.meta.main) {
  const s = serveStandIn();
  process.stderr.write(`embeddings stand-in on http://127.0.0.1:${s.port}/v1/embeddings\n`);
}
