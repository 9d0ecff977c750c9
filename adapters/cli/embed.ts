// `bindery embed`: fills the optional embedding vectors (docs/configuration.md) of every live binding whose current
// version has none for BINDERY_EMBEDDINGS_MODEL, calling BINDERY_EMBEDDINGS_URL in batches. Writes
// embed what they write; this catches up after the provider is first configured, changed or was down.
import { embedMissing } from '../../core/services/embed.ts';
import { openRuntime } from '../runtime.ts';

export async function main(_args: string[]): Promise<number> {
  const { deps, database, config } = await openRuntime();
  try {
    if (!config.embeddings) {
      console.error('bindery embed: embeddings are off; set BINDERY_EMBEDDINGS_URL and BINDERY_EMBEDDINGS_MODEL (see the README)');
      return 2;
    }
    const started = performance.now();
    const done = await embedMissing(deps, { progress: (n) => process.stderr.write(`\rembedded ${n}`) });
    process.stderr.write(
      `${done ? '\n' : ''}embedded ${done} bindings with ${config.embeddings.model} in ${Math.round(performance.now() - started)} ms\n`,
    );
    return 0;
  } finally {
    database.close();
  }
}
