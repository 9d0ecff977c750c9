// Imported first by stdio.ts: when this process is the stdio server (`bun adapters/stdio.ts`), the
// tokenizer's tables start loading on a worker thread before the server's modules are read (see
// ./tokenizer-thread.ts). Imported by anything else (a test), it does nothing. (The path is joined by
// hand: node:url would be the only module of the start-up to need it.)
import { startTokenizerEarly } from './tokenizer-thread.ts';

if (Bun.main === `${import.meta.dir}/stdio.ts`) startTokenizerEarly(process.env);
