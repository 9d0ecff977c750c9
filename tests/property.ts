// How many cases the property tests run, set in one place. Every fast-check property in the suite
// passes its count through numRuns(); the count written there is its default, chosen for the cost of
// one case (thousands for a pure function, tens for a case that drives a whole server).
// BINDERY_PROPERTY_RUNS=<n> scales every property as if fast-check's default of 100 runs were n:
// 10 runs each a tenth of its default (the fast loop's setting, scripts/test-fast.ts), 1000 ten times
// its default (a deeper search before a release). Unset, every property runs its default (docs/testing.md).

/** fast-check's own default run count, the unit BINDERY_PROPERTY_RUNS is given in. */
const FAST_CHECK_DEFAULT = 100;

const scale = parseScale(process.env.BINDERY_PROPERTY_RUNS);

function parseScale(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`BINDERY_PROPERTY_RUNS must be a whole number of at least 1, got '${raw}'`);
  return n / FAST_CHECK_DEFAULT;
}

/** The number of runs for a property whose default is `defaultRuns`, scaled by BINDERY_PROPERTY_RUNS (at least 1). */
export function numRuns(defaultRuns: number): number {
  return Math.max(1, Math.round(defaultRuns * scale));
}
