// Telemetry for the Bun/Node adapters: the core's metrics and request logs, with AsyncLocalStorage
// carrying each request's record (node:async_hooks, so it lives here and not in core).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { BinderyConfig } from '../core/config.ts';
import { defaultMetrics } from '../core/observe/metrics.ts';
import { createTelemetry, type RequestRecord, type RequestScope, type Telemetry } from '../core/observe/telemetry.ts';

/** Telemetry when BINDERY_METRICS_TOKEN or BINDERY_LOG_FORMAT=json asks for it; undefined otherwise (nothing is counted). */
export function runtimeTelemetry(config: BinderyConfig): Telemetry | undefined {
  const observe = config.observe;
  if (!observe?.metricsToken && observe?.logFormat !== 'json') return undefined;
  const storage = new AsyncLocalStorage<RequestRecord>();
  const scope: RequestScope = { run: (record, fn) => storage.run(record, fn), current: () => storage.getStore() };
  const writeLine = observe.logFormat === 'json' ? (line: string) => void process.stderr.write(`${line}\n`) : undefined;
  return createTelemetry({ metrics: defaultMetrics(), scope, writeLine });
}
