// The core entry point (`bindery/core`): the server factory, tool definition, tokens, tiers, budgets.
export { createBinderyServer, SERVER_NAME, SERVER_VERSION, type ServerOptions } from './server';
export { defineTool, type ToolDefinition, type AnyTool, type ResponseBound, type ToolOutput } from './tools/define';
export { ALL_TOOLS, createRegistry } from './tools/registry';
export { createTiktokenCounter, TOKENIZERS, type TokenCounter, type TokenizerName } from './tokens/counter';
export { joinPieces, line, type Piece } from './tokens/doc';
export { tierPieces, tierObject, tierCost, renderHead, renderPreview, renderContent, previewWithNote, HEAD_TOKEN_BOUND, TIERS, type Tier } from './budget/tier';
export { pack, footerTokens, planFooter, type PackInput, type PackResult, type PackCandidate, type FooterCosts, type FooterPlan } from './budget/pack';
export { parseConfig, DEFAULT_CONFIG, type BinderyConfig, type ToolMode } from './config';
export { BinderyError, toErrorResult, type ErrorCode } from './errors';
export type { BinderyDeps, Caller, Logger, ToolContext } from './context';
export { stderrLogger } from './context';
export { ensureCaller, ensureCountsCurrent } from './services/prepare';
export { RuntimeProfiler, defaultProfiler, type RuntimeFigures } from './footprint/runtime';
