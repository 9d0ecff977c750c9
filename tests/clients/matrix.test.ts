// Clients nobody here wrote × every transport (support/clients/matrix.ts): the MCP SDK Client, the
// Vercel AI SDK MCP client and the MCP Inspector CLI, over stdio, HTTP with sessions, stateless HTTP,
// the Deno edge handler and workerd. Each cell must pass every step; the goal is asserted (tier as a
// number, resources), not today's behaviour. `bun scripts/client-matrix.ts` prints the same table.
import { beforeAll, describe, expect, test } from 'bun:test';
import { CLIENTS } from '../../support/clients/drivers.ts';
import { renderMatrix, runMatrix, STEPS, TRANSPORTS, type Cell } from '../../support/clients/matrix.ts';
import type { TransportName } from '../../support/clients/harness.ts';

let cells: Cell[] = [];
let unavailable = new Map<TransportName, string>();

beforeAll(async () => {
  ({ cells, unavailable } = await runMatrix());
  console.log(`client matrix:\n${renderMatrix(cells, unavailable)}`);
}, 180_000);

for (const transport of TRANSPORTS) {
  describe(`clients on ${transport}`, () => {
    for (const client of CLIENTS) {
      test(client, () => {
        if (unavailable.has(transport)) {
          console.warn(`skipped ${transport}: ${unavailable.get(transport)}`);
          return;
        }
        const cell = cells.find((c) => c.client === client && c.transport === transport);
        expect(cell).toBeDefined();
        // Every step ran (or was skipped for a stated reason), and none failed.
        expect(cell!.steps.map((s) => s.step)).toEqual([...STEPS]);
        const failed = cell!.steps.filter((s) => s.status === 'fail').map((s) => `${s.step}: ${s.detail ?? ''}`);
        expect(failed).toEqual([]);
      });
    }
  });
}
