// The client × transport matrix: the same steps through each outside client on each transport, each
// step recorded pass/fail with its reason, rendered as Markdown (scripts/client-matrix.ts prints it,
// tests/clients/matrix.test.ts asserts every cell passes).
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { CLIENTS, inspectorWarnings, openSession, type ClientName, type Session } from './drivers.ts';
import { pool, startTransport, transportUnavailable, type Endpoint, type TransportName } from './harness.ts';

export const TRANSPORTS: readonly TransportName[] = ['stdio', 'http-sessions', 'http-stateless', 'deno-edge', 'workerd-edge'];
export const STEPS = [
  'initialize',
  'tools/list',
  'create_binding',
  'search tier 1',
  'search tier "1"',
  'outputSchema',
  'resources/list',
] as const;
export type StepName = (typeof STEPS)[number];

export interface StepResult {
  step: StepName;
  status: 'pass' | 'fail' | 'skip';
  detail?: string;
}

export interface Cell {
  client: ClientName;
  transport: TransportName;
  steps: StepResult[];
  ok: boolean;
  ms: number;
}

const validators = new AjvJsonSchemaValidator();

/** Problems of one result against its tool's outputSchema (the SDK's own ajv validator), or []. */
function outputProblems(tool: Tool | undefined, result: CallToolResult): string[] {
  if (!tool?.outputSchema) return [`${tool?.name ?? 'tool'} has no outputSchema`];
  if (result.isError) return [];
  const check = validators.getValidator(tool.outputSchema as never)(result.structuredContent);
  return check.valid ? [] : [`${tool.name}: ${check.errorMessage}`];
}

function errorText(result: CallToolResult): string {
  const first = result.content?.[0] as { text?: string } | undefined;
  return (first?.text ?? JSON.stringify(result)).split('\n')[0]!.slice(0, 200);
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 240);

/** Runs every step of one cell; a failed step is recorded and the cell goes on where it can. */
export async function runCell(client: ClientName, endpoint: Endpoint): Promise<Cell> {
  const t0 = performance.now();
  const steps: StepResult[] = [];
  const record = (step: StepName, status: StepResult['status'], detail?: string) =>
    void steps.push({ step, status, ...(detail ? { detail } : {}) });
  let session: Session | undefined;
  try {
    session = await openSession(client, endpoint);
    record(
      'initialize',
      session.serverName === 'bindery' ? 'pass' : 'fail',
      session.serverName === 'bindery' ? undefined : `serverInfo.name is "${session.serverName}"`,
    );
  } catch (e) {
    record('initialize', 'fail', message(e));
    for (const s of STEPS.slice(1)) record(s, 'skip', 'no session');
    return { client, transport: endpoint.transport, steps, ok: false, ms: performance.now() - t0 };
  }
  try {
    let tools: Tool[] = [];
    try {
      tools = await session.listTools();
      const bad = tools.filter((t) => t.inputSchema?.type !== 'object' || !t.outputSchema);
      // Every schema must compile in the SDK's validator, input and output alike.
      for (const t of tools) {
        validators.getValidator(t.inputSchema as never);
        if (t.outputSchema) validators.getValidator(t.outputSchema as never);
      }
      const missing = ['create_binding', 'search_bindings'].filter((n) => !tools.some((t) => t.name === n));
      if (bad.length || missing.length)
        record('tools/list', 'fail', [...bad.map((t) => `${t.name}: schema missing`), ...missing.map((n) => `${n} not listed`)].join('; '));
      else record('tools/list', 'pass', `${tools.length} tools`);
    } catch (e) {
      record('tools/list', 'fail', message(e));
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    const word = `zq${client}${endpoint.transport}`.replace(/[^a-z]/g, '');
    const problems: string[] = [];
    let id: string | undefined;
    try {
      const created = await session.call('create_binding', {
        name: `Matrix ${client} ${endpoint.transport}`,
        content: `# Notes\n\nThe ${word} lives here.\n`,
        summary: `About ${word}.`,
      });
      id = (created.structuredContent as { binding?: { id?: string } } | undefined)?.binding?.id;
      problems.push(...outputProblems(byName.get('create_binding'), created));
      record(
        'create_binding',
        !created.isError && id ? 'pass' : 'fail',
        created.isError ? errorText(created) : id ? undefined : 'no structuredContent.binding.id',
      );
    } catch (e) {
      record('create_binding', 'fail', message(e));
    }
    for (const [step, tier] of [
      ['search tier 1', 1],
      ['search tier "1"', '1'],
    ] as const) {
      try {
        const found = await session.call('search_bindings', { query: word, tier });
        problems.push(...outputProblems(byName.get('search_bindings'), found));
        const ids = ((found.structuredContent as { results?: { id?: string }[] } | undefined)?.results ?? []).map((r) => r.id);
        if (found.isError) record(step, 'fail', errorText(found));
        else
          record(
            step,
            id && ids.includes(id) ? 'pass' : 'fail',
            id && ids.includes(id) ? undefined : `created binding not among ${ids.length} results`,
          );
      } catch (e) {
        record(step, 'fail', message(e));
      }
    }
    const called = steps.some((s) => s.step !== 'initialize' && s.step !== 'tools/list' && s.status === 'pass');
    record(
      'outputSchema',
      problems.length ? 'fail' : called ? 'pass' : 'skip',
      problems.length ? problems.join('; ') : called ? undefined : 'no successful call to check',
    );
    if (!session.capabilities.resources) record('resources/list', 'skip', 'capability not advertised');
    else {
      try {
        const resources = await session.listResources();
        const ok = resources.some((r) => r.uri.startsWith('bindery://'));
        record(
          'resources/list',
          ok ? 'pass' : 'fail',
          ok ? `${resources.length} resources` : `no bindery:// resource among ${resources.length}`,
        );
      } catch (e) {
        record('resources/list', 'fail', message(e));
      }
    }
  } finally {
    await session.close().catch(() => {});
  }
  return { client, transport: endpoint.transport, steps, ok: steps.every((s) => s.status !== 'fail'), ms: performance.now() - t0 };
}

/** Starts every transport, runs every cell (a few at a time on 2 cores), stops the transports. */
export async function runMatrix(
  opts: { clients?: readonly ClientName[]; transports?: readonly TransportName[]; concurrency?: number } = {},
): Promise<{ cells: Cell[]; unavailable: Map<TransportName, string> }> {
  const clients = opts.clients ?? CLIENTS;
  const unavailable = new Map<TransportName, string>();
  const wanted = (opts.transports ?? TRANSPORTS).filter((t) => {
    const why = transportUnavailable(t);
    if (why) unavailable.set(t, why);
    return !why;
  });
  const started = await Promise.allSettled(wanted.map((t) => startTransport(t)));
  const endpoints = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  try {
    const failed = started.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason; // the others are stopped below
    const jobs = endpoints.flatMap((e) => clients.map((c) => () => runCell(c, e)));
    return { cells: await pool(opts.concurrency ?? 3, jobs), unavailable };
  } finally {
    await Promise.all(endpoints.map((e) => e.stop().catch(() => {})));
  }
}

const mark = (s: StepResult | undefined) => (!s ? '' : s.status === 'pass' ? '✅' : s.status === 'skip' ? '–' : '❌');

/** The matrix as Markdown: one grid (client × transport), then each cell's steps, then the reasons. */
export function renderMatrix(cells: Cell[], unavailable = new Map<TransportName, string>()): string {
  const transports = [...new Set(cells.map((c) => c.transport))];
  const clients = [...new Set(cells.map((c) => c.client))];
  const lines = [`| client \\ transport | ${transports.join(' | ')} |`, `|---|${transports.map(() => '---').join('|')}|`];
  for (const c of clients) {
    const row = transports.map((t) => {
      const cell = cells.find((x) => x.client === c && x.transport === t);
      return !cell
        ? 'n/a'
        : cell.ok
          ? '✅ pass'
          : `❌ ${cell.steps
              .filter((s) => s.status === 'fail')
              .map((s) => s.step)
              .join(', ')}`;
    });
    lines.push(`| ${c} | ${row.join(' | ')} |`);
  }
  lines.push('', `| client | transport | ${STEPS.join(' | ')} |`, `|---|---|${STEPS.map(() => ':-:').join('|')}|`);
  for (const cell of cells)
    lines.push(`| ${cell.client} | ${cell.transport} | ${STEPS.map((s) => mark(cell.steps.find((x) => x.step === s))).join(' | ')} |`);
  // One line per distinct (step, outcome, reason), naming the cells it applies to.
  const groups = new Map<string, string[]>();
  for (const cell of cells) {
    for (const s of cell.steps) {
      if (s.status === 'pass' || !s.detail) continue;
      const key = `${s.step} (${s.status}): ${s.detail.replace(/\|/g, '\\|')}`;
      groups.set(key, [...(groups.get(key) ?? []), `${cell.client} × ${cell.transport}`]);
    }
  }
  const notes = [...groups].map(
    ([key, where]) => `- ${key} — ${where.length === cells.length ? `all ${cells.length} cells` : where.join(', ')}`,
  );
  for (const [t, why] of unavailable) notes.push(`- ${t}: not run (${why})`);
  const warned = [...new Set(inspectorWarnings.values())];
  if (warned.length)
    notes.push(
      `- inspector-cli \`--strict\`: ${warned.join('/')} schema-portability warnings on ${[...inspectorWarnings.keys()].join(', ')} (legal JSON Schema such as \`type: ["string","null"]\`; no error-severity problem, exit 0)`,
    );
  if (notes.length) lines.push('', ...notes);
  return lines.join('\n');
}
