// The core entry point (`bindery/core`): the server factory, tool definition, tokens, tiers, budgets.
export { createBinderyServer, SERVER_NAME, SERVER_VERSION, type ServerOptions } from './server.ts';
export { defineTool, type ToolDefinition, type AnyTool, type ResponseBound, type ToolOutput } from './tools/define.ts';
export { ALL_TOOLS, createRegistry } from './tools/registry.ts';
export { createTiktokenCounter, TOKENIZERS, type TokenCounter, type TokenizerName } from './tokens/counter.ts';
export { joinPieces, line, type Piece } from './tokens/doc.ts';
export {
  tierPieces,
  tierObject,
  tierCost,
  renderHead,
  renderPreview,
  renderContent,
  previewWithNote,
  HEAD_TOKEN_BOUND,
  TIERS,
  type Tier,
} from './budget/tier.ts';
export {
  pack,
  footerTokens,
  planFooter,
  type PackInput,
  type PackResult,
  type PackCandidate,
  type FooterCosts,
  type FooterPlan,
} from './budget/pack.ts';
export { parseConfig, DEFAULT_CONFIG, type BinderyConfig, type ToolMode } from './config.ts';
export { BinderyError, toErrorResult, type ErrorCode } from './errors.ts';
export type { BinderyDeps, BinderyDepsInput, Caller, Logger, ToolContext } from './context.ts';
export { stderrLogger } from './context.ts';
export { ensureCaller, ensureCountsCurrent } from './services/prepare.ts';
export { RuntimeProfiler, defaultProfiler, type RuntimeFigures } from './footprint/runtime.ts';
