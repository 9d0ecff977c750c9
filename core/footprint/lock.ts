import type { BinderyConfig } from '../config.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import type { AnyTool, ResponseBound } from '../tools/define.ts';
import { leanListEntry, toolListEntry } from '../tools/listing.ts';
import { countEntry, definitionCost } from './definition.ts';
import { RISKS, staticProfile, summarizeProfiles, type Risk, type RiskThresholds } from './profile.ts';

export const LOCKFILE_NAME = 'bindery.lock.json';
export const LOCKFILE_VERSION = 1;
/** A definition that grows by more than this share is RISKY: every session pays for it. */
export const GROWTH_LIMIT = 0.2;

export interface LockedTool {
  category: string;
  hash: string;
  /** Name, description and input schema: what clients put in the model's context. */
  modelTokens: number;
  /** The whole tools/list entry (with the output schema). */
  definitionTokens: number;
  bound: ResponseBound['kind'];
  bounded: boolean;
  worstCaseTokens: number;
  risk: Risk;
  /** Argument name → whether a call must give it. */
  arguments: Record<string, 'required' | 'optional'>;
  /**
   * How lazy mode lists the tool while it is always-listed, when it names its everyday arguments: those
   * arguments (every one in `arguments` is still accepted), the entry's hash and its model-visible tokens.
   */
  lean?: { arguments: string[]; hash: string; modelTokens: number };
}

/** `bindery.lock.json`: the tool surface and its token economics, as reviewed. */
export interface LockFile {
  lockfileVersion: number;
  tokenizer: string;
  riskThresholds: RiskThresholds;
  maxResponseTokens: number;
  summary: {
    tools: number;
    modelTokens: number;
    definitionTokens: number;
    overallRisk: Risk;
    unboundedTools: string[];
    criticalTools: string[];
  };
  tools: Record<string, LockedTool>;
}

export type LockConfig = Pick<BinderyConfig, 'riskThresholds' | 'maxResponseTokens'>;

/** The arguments of a tool as its `tools/list` schema states them. */
export function toolArguments(tool: AnyTool): Record<string, 'required' | 'optional'> {
  const schema = toolListEntry(tool).inputSchema;
  const required = new Set(schema.required ?? []);
  const out: Record<string, 'required' | 'optional'> = {};
  for (const name of Object.keys(schema.properties ?? {})) out[name] = required.has(name) ? 'required' : 'optional';
  return out;
}

/** The lean listing of a tool that names its everyday arguments, as the lock records it. */
function leanOf(tool: AnyTool, tokens: TokenCounter): NonNullable<LockedTool['lean']> {
  const entry = leanListEntry(tool);
  const cost = countEntry(entry, tokens);
  return { arguments: Object.keys(entry.inputSchema.properties ?? {}), hash: cost.hash, modelTokens: cost.modelTokens };
}

/** Builds the lock for a tool surface (the counter's encoding is recorded; check with the same one). */
export function buildLock(tools: readonly AnyTool[], tokens: TokenCounter, config: LockConfig): LockFile {
  const entries: Record<string, LockedTool> = {};
  const profiles = tools.map((t) => staticProfile(t, config));
  let definitionTokens = 0;
  let modelTokens = 0;
  tools.forEach((tool, i) => {
    const cost = definitionCost(tool, tokens);
    const p = profiles[i]!;
    definitionTokens += cost.tokens;
    modelTokens += cost.modelTokens;
    entries[tool.name] = {
      category: tool.category,
      hash: cost.hash,
      modelTokens: cost.modelTokens,
      definitionTokens: cost.tokens,
      bound: p.bound,
      bounded: p.bounded,
      worstCaseTokens: p.worstCaseTokens,
      risk: p.risk,
      arguments: toolArguments(tool),
      ...(tool.listed ? { lean: leanOf(tool, tokens) } : {}),
    };
  });
  const s = summarizeProfiles(profiles);
  return {
    lockfileVersion: LOCKFILE_VERSION,
    tokenizer: tokens.encoding,
    riskThresholds: { ...config.riskThresholds },
    maxResponseTokens: config.maxResponseTokens,
    summary: {
      tools: tools.length,
      modelTokens,
      definitionTokens,
      overallRisk: s.overallRisk,
      unboundedTools: s.unboundedTools,
      criticalTools: s.criticalTools,
    },
    tools: entries,
  };
}

/** The lock file's text: stable key order, two-space indent, trailing newline (clean diffs). */
export function serializeLock(lock: LockFile): string {
  return `${JSON.stringify(lock, null, 2)}\n`;
}

/** Reads a lock file's text; throws a message naming what is wrong. */
export function parseLock(text: string): LockFile {
  let data: LockFile;
  try {
    data = JSON.parse(text) as LockFile;
  } catch (e) {
    throw new Error(`not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (data?.lockfileVersion !== LOCKFILE_VERSION || typeof data.tools !== 'object' || !data.tools) {
    throw new Error(`not a version-${LOCKFILE_VERSION} Bindery lock file (run bindery lock to write one)`);
  }
  return data;
}

export type Severity = 'BREAKING' | 'RISKY' | 'SAFE';
export const SEVERITIES: readonly Severity[] = ['BREAKING', 'RISKY', 'SAFE'];

export interface LockChange {
  tool: string;
  severity: Severity;
  change: string;
}

/** Every difference between the locked surface and the current one, labelled by how it affects callers. */
export function diffLock(locked: LockFile, current: LockFile): LockChange[] {
  const changes: LockChange[] = [];
  const add = (tool: string, severity: Severity, change: string) => changes.push({ tool, severity, change });
  for (const [name, was] of Object.entries(locked.tools)) {
    const now = current.tools[name];
    if (!now) {
      add(name, 'BREAKING', 'tool removed');
      continue;
    }
    const dr = RISKS.indexOf(now.risk) - RISKS.indexOf(was.risk);
    if (dr > 0)
      add(name, 'BREAKING', `risk went up: ${was.risk} → ${now.risk} (worst case ${was.worstCaseTokens} → ${now.worstCaseTokens} tokens)`);
    if (dr < 0) add(name, 'SAFE', `risk went down: ${was.risk} → ${now.risk}`);
    for (const [arg, req] of Object.entries(was.arguments)) {
      const nowReq = now.arguments[arg];
      if (!nowReq) add(name, 'BREAKING', `argument "${arg}" removed`);
      else if (req === 'optional' && nowReq === 'required') add(name, 'BREAKING', `argument "${arg}" made required`);
      else if (req === 'required' && nowReq === 'optional') add(name, 'SAFE', `argument "${arg}" made optional`);
    }
    for (const [arg, req] of Object.entries(now.arguments)) {
      if (was.arguments[arg]) continue;
      if (req === 'required') add(name, 'BREAKING', `new required argument "${arg}"`);
      else add(name, 'SAFE', `new optional argument "${arg}"`);
    }
    if (was.bounded && !now.bounded) add(name, 'RISKY', `became unbounded (was ${was.bound})`);
    else if (!was.bounded && now.bounded) add(name, 'SAFE', `became bounded (${now.bound})`);
    else if (was.bound !== now.bound) add(name, 'SAFE', `bound changed: ${was.bound} → ${now.bound}`);
    if (dr === 0 && was.worstCaseTokens !== now.worstCaseTokens) {
      add(name, 'SAFE', `worst case ${was.worstCaseTokens} → ${now.worstCaseTokens} tokens (risk still ${now.risk})`);
    }
    const growth = was.definitionTokens ? (now.definitionTokens - was.definitionTokens) / was.definitionTokens : 0;
    // The whole entry decides the growth rule; the model-visible change is named beside it (absent in older locks).
    const model = was.modelTokens === undefined ? '' : `; model-visible ${was.modelTokens} → ${now.modelTokens}`;
    const sizes = `${was.definitionTokens} → ${now.definitionTokens} tokens (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%${model})`;
    if (growth > GROWTH_LIMIT) add(name, 'RISKY', `definition grew ${sizes}`);
    else if (was.hash !== now.hash) add(name, 'SAFE', `definition changed: ${sizes}`);
    if (was.category !== now.category) add(name, 'SAFE', `category ${was.category} → ${now.category}`);
    if (was.lean?.hash !== now.lean?.hash) add(name, 'SAFE', leanChange(was.lean, now.lean));
  }
  for (const name of Object.keys(current.tools)) {
    if (!locked.tools[name])
      add(
        name,
        'SAFE',
        `tool added (${current.tools[name]!.modelTokens} model-visible / ${current.tools[name]!.definitionTokens} tools/list tokens, risk ${current.tools[name]!.risk})`,
      );
  }
  return changes.sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
}

/** A change of a tool's lean listing, in words (the arguments stay accepted either way). */
function leanChange(was: LockedTool['lean'], now: LockedTool['lean']): string {
  const show = (l: NonNullable<LockedTool['lean']>) => `{${l.arguments.join(', ')}} ${l.modelTokens} model-visible tokens`;
  if (!was) return `lazy mode lists it lean: ${show(now!)}`;
  if (!now) return `lazy mode lists it in full (was lean: ${show(was)})`;
  return `lean listing changed: ${show(was)} → ${show(now)}`;
}

/** A readable drift report for `bindery lock --check`. */
export function formatLockCheck(changes: readonly LockChange[], current: LockFile, file = LOCKFILE_NAME): string {
  const s = current.summary;
  const size = `${s.tools} tools, ${s.modelTokens} model-visible definition tokens (name, description, input schema), ${s.definitionTokens} as full tools/list entries (${current.tokenizer})`;
  if (changes.length === 0) {
    return `${file} matches the lock: ${size}. Response risk (worst case of declared bounds, not a drift): ${s.overallRisk}.\n`;
  }
  const count = (sev: Severity) => changes.filter((c) => c.severity === sev).length;
  const width = Math.max(...changes.map((c) => c.tool.length));
  const lines = [
    `${file} is out of date: ${changes.length} change${changes.length === 1 ? '' : 's'} (${SEVERITIES.map((v) => `${count(v)} ${v}`).join(', ')}); now ${size}`,
    '',
    ...changes.map((c) => `  ${c.severity.padEnd(8)}  ${c.tool.padEnd(width)}  ${c.change}`),
    '',
    'BREAKING: callers or context budgets break (tool or argument removed, argument made required, risk up).',
    'RISKY: context may flood (became unbounded, definition grew > 20%). SAFE: compatible.',
    `Review the changes, then run \`bindery lock\` to accept them into ${file}.`,
  ];
  return `${lines.join('\n')}\n`;
}
