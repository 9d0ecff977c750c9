import type { BinderyConfig, ToolMode } from '../config.ts';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool } from '../tools/define.ts';
import type { ToolRegistry } from '../context.ts';
import { leanListEntry, toolListEntry } from '../tools/listing.ts';

export type ActiveMode = Exclude<ToolMode, 'auto'>;

/** Tools `tools/list` shows in proxy mode. */
export const PROXY_LISTED = ['list_tool_categories', 'search_tools', 'invoke_tool', 'help'];

/**
 * Per-session tool visibility: which mode this session runs in and, in lazy mode, which tools a
 * search enabled (least recently used leave first once the cap is reached).
 */
export class ToolSession {
  mode: ActiveMode;
  modeReason: string;
  clientName: string | null = null;
  clientVersion: string | null = null;
  /** True once the client's clientInfo was seen (auto mode decides then). */
  identified = false;
  /** Enabled by search or by a direct call, least recently used first. */
  private enabled: string[] = [];
  /** Always-listed tools a search showed, listed with their full input schema from then on (lazy mode). */
  private readonly full = new Set<string>();
  private readonly requested: ToolMode;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly config: BinderyConfig,
    requested: ToolMode,
    stateless: boolean,
    /** Where the requested mode came from, for `whoami` (e.g. "BINDERY_TOOL_MODE"). */
    source = 'BINDERY_TOOL_MODE',
  ) {
    this.requested = stateless ? 'eager' : requested;
    if (stateless) {
      this.mode = 'eager';
      this.modeReason = 'stateless transport: always eager (no session to enable tools in)';
    } else if (requested === 'auto') {
      this.mode = 'eager';
      this.modeReason = 'auto: client not identified yet, eager until it is';
    } else {
      this.mode = requested;
      this.modeReason = source === 'BINDERY_TOOL_MODE' ? `set by BINDERY_TOOL_MODE=${requested}` : `set by the ${source}`;
    }
  }

  /** Called once the client said who it is; `auto` picks lazy for clients known to apply list_changed. */
  identify(name: string | undefined, version: string | undefined): void {
    this.identified = true;
    this.clientName = name ?? null;
    this.clientVersion = version ?? null;
    if (this.requested !== 'auto') return;
    const lower = (name ?? '').toLowerCase();
    const known = lower ? this.config.listChangedClients.find((c) => c && lower.includes(c.toLowerCase())) : undefined;
    this.mode = known ? 'lazy' : 'eager';
    this.modeReason = known
      ? `auto: client "${name}" is known to apply tools/list_changed (matched "${known}" in BINDERY_LIST_CHANGED_CLIENTS), so lazy`
      : `auto: client "${name || 'unknown'}" is not in BINDERY_LIST_CHANGED_CLIENTS, so eager`;
  }

  /** The tools `tools/list` returns now. */
  listed(): AnyTool[] {
    const real = this.registry.all.filter((t) => t.category !== 'proxy');
    if (this.mode === 'eager') return real;
    if (this.mode === 'proxy') return PROXY_LISTED.map((n) => this.registry.get(n)).filter((t): t is AnyTool => !!t);
    const names = new Set([...this.config.alwaysTools, ...this.enabled]);
    return real.filter((t) => names.has(t.name));
  }

  /** Exactly what `tools/list` returns now: in lazy mode an always-listed tool is lean until a search shows it. */
  listedEntries(): Tool[] {
    return this.listed().map((t) => (this.lean(t) ? leanListEntry(t) : toolListEntry(t)));
  }

  /** Is this tool listed with only its everyday arguments (`listed`) right now? */
  lean(tool: AnyTool): boolean {
    return this.mode === 'lazy' && !!tool.listed && !this.full.has(tool.name) && this.config.alwaysTools.includes(tool.name);
  }

  /** May this tool be called in this session? Real tools always; proxy tools only in proxy mode. */
  callable(tool: AnyTool): boolean {
    return tool.category !== 'proxy' || this.mode === 'proxy';
  }

  /**
   * Enables tools for the session (lazy mode); returns the names whose listing changed: tools not
   * listed before, and always-listed tools now listed in full instead of lean.
   */
  enable(names: string[]): string[] {
    if (this.mode !== 'lazy') return [];
    const always = new Set(this.config.alwaysTools);
    const added: string[] = [];
    for (const name of names) {
      const tool = this.registry.get(name);
      if (tool && this.lean(tool)) {
        this.full.add(name);
        added.push(name);
      }
      if (always.has(name) || !tool || tool.category === 'proxy') continue;
      const at = this.enabled.indexOf(name);
      if (at >= 0) this.enabled.splice(at, 1);
      else added.push(name);
      this.enabled.push(name);
    }
    while (this.enabled.length > this.config.maxEnabledTools) {
      const evicted = this.enabled.shift()!;
      const i = added.indexOf(evicted);
      if (i >= 0) added.splice(i, 1);
    }
    return added;
  }

  /** Marks a tool as used now (for least-recently-used eviction). */
  touch(name: string): void {
    const at = this.enabled.indexOf(name);
    if (at >= 0) {
      this.enabled.splice(at, 1);
      this.enabled.push(name);
    }
  }

  enabledTools(): string[] {
    return [...this.enabled];
  }
}
