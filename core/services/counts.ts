import type { BinderyConfig } from '../config';
import { RENDER_REVISION } from '../budget/tier';

/** What stored block counts depend on: the render revision, the tokenizer and the public URL. */
export function renderKey(deps: { config: Pick<BinderyConfig, 'tokenizer' | 'publicUrl'> }): string {
  return `r${RENDER_REVISION}|${deps.config.tokenizer}|${deps.config.publicUrl}`;
}
