// What a tool run reports to observers (the runtime profiler, /metrics, request logs). A leaf module:
// tools, footprint and observe all import it, so none of them has to import another for this type.

/** Called once per tool run with its figures. */
export interface ToolRunObserver {
  (tool: string, figures: { tokens: number; dataTokens: number; isError: boolean; ms: number; code?: string; omitted?: number }): void;
}
