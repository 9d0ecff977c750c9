// The benchmark suite (`bun run bench`): runs every bench/*.bench.ts module in one process, side by
// side, prints one Markdown table and writes bench/results/latest.json. `bun run bench <filter>` runs
// only the modules whose file name contains the filter.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import type { BenchSection } from './types.ts';

const dir = import.meta.dir;
const filter = process.argv[2] ?? '';
const modules = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
  .sort();
const sections: BenchSection[] = [];
for (const file of modules) {
  const started = performance.now();
  process.stderr.write(`bench: ${file}…\n`);
  const mod = (await import(join(dir, file))) as { run(): Promise<BenchSection | BenchSection[]> };
  const out = await mod.run();
  for (const s of Array.isArray(out) ? out : [out]) sections.push(s);
  process.stderr.write(`bench: ${file} done in ${Math.round(performance.now() - started)} ms\n`);
}

const lines = ['| benchmark | metric | value | goal | met |', '|---|---|---|---|---|'];
for (const s of sections) {
  for (const r of s.rows) {
    const value = `${typeof r.value === 'number' ? r.value.toLocaleString('en-US') : r.value}${r.unit ? ` ${r.unit}` : ''}`;
    lines.push(`| ${s.title} | ${r.metric} | ${value} | ${r.goal ?? ''} | ${r.met === undefined ? '' : r.met ? 'yes' : 'no'} |`);
  }
}
const table = lines.join('\n');
console.log(table);
mkdirSync(join(dir, 'results'), { recursive: true });
const machine = {
  cpus: os.cpus().length,
  cpu: os.cpus()[0]?.model,
  memGiB: Math.round(os.totalmem() / 2 ** 30),
  bun: Bun.version,
  platform: process.platform,
};
const at = new Date().toISOString();
writeFileSync(
  join(dir, 'results', filter ? `latest-${filter}.json` : 'latest.json'),
  JSON.stringify({ at, machine, sections, table }, null, 2) + '\n',
);

// A full run also refreshes the benchmark table in docs/benchmarks.md (between its bench markers).
if (!filter) {
  const readme = join(dir, '..', 'docs', 'benchmarks.md');
  const text = readFileSync(readme, 'utf8');
  const start = text.indexOf('<!-- bench:start -->');
  const end = text.indexOf('<!-- bench:end -->');
  if (start >= 0 && end > start) {
    const stamp = `Last run ${at.slice(0, 16).replace('T', ' ')} UTC on ${machine.cpus} × ${machine.cpu ?? 'CPU'}, Bun ${machine.bun}.`;
    writeFileSync(readme, `${text.slice(0, start)}<!-- bench:start -->\n${stamp}\n\n${table}\n${text.slice(end)}`);
  }
}
