// The entry of the pre-built stdio server (dist/stdio/, scripts/build-stdio.ts): one file of every
// module the server loads, with Bun's bytecode beside it, so a launch neither reads ~300 modules nor
// compiles them. adapters/cli.ts runs it for `bindery stdio` while it matches the sources
// (./stdio-bundle.ts); it starts the tokenizer's worker first, then the server (whose modules, inlined
// behind the dynamic import, are evaluated only then).
import { startTokenizerEarly } from './tokenizer-thread.ts';

startTokenizerEarly(process.env);
import('./stdio.ts')
  .then(({ runStdio }) => runStdio({ prebuilt: true }))
  .catch((err) => {
    process.stderr.write(`[bindery] failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
