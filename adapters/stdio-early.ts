// Imported first by stdio.ts: when this process is the stdio server (`bun adapters/stdio.ts`), the
// tokenizer's tables start loading on a worker thread before the server's modules are read (see
// ./tokenizer-thread.ts). Imported by anything else (a test), it does nothing.
import { fileURLToPath } from 'node:url';
import { startTokenizerEarly } from './tokenizer-thread.ts';

if (Bun.main === fileURLToPath(new URL('./stdio.ts', import.meta.url))) startTokenizerEarly(process.env);
