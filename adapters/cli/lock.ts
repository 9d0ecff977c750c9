// `bindery lock [--check] [--file <path>]`: writes bindery.lock.json (the tool surface and its token
// economics) or, with --check, compares the current tools with it and exits 1 on any drift.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRegistry, createTiktokenCounter, parseConfig, TOKENIZERS, type TokenizerName } from '../../core/index.ts';
import { buildLock, diffLock, formatLockCheck, LOCKFILE_NAME, parseLock, serializeLock } from '../../core/footprint/lock.ts';
import { parseCommand } from './args.ts';

const USAGE = 'usage: bindery lock [--check] [--file <path>]';

export async function main(args: string[]): Promise<number> {
  const { values } = parseCommand(
    'lock',
    USAGE,
    args,
    { check: { type: 'boolean' }, file: { type: 'string', needs: 'a path' } },
    { positionals: false },
  );
  const check = values.check === true;
  const file = values.file ?? join(import.meta.dir, '..', '..', LOCKFILE_NAME);
  const tools = createRegistry().all;
  if (!check) {
    const config = parseConfig(process.env);
    const tokens = createTiktokenCounter(config.tokenizer);
    await tokens.load();
    const lock = buildLock(tools, tokens, config);
    writeFileSync(file, serializeLock(lock));
    const s = lock.summary;
    console.log(
      `wrote ${file}: ${s.tools} tools, ${s.modelTokens} model-visible definition tokens, ${s.definitionTokens} as full tools/list entries (${lock.tokenizer}); response risk ${s.overallRisk}`,
    );
    return 0;
  }
  if (!existsSync(file)) {
    console.error(`bindery lock --check: ${file} does not exist; run \`bindery lock\` and commit it`);
    return 1;
  }
  let locked;
  try {
    locked = parseLock(readFileSync(file, 'utf8'));
  } catch (e) {
    console.error(`bindery lock --check: ${file} is ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  // Check with the lock's own tokenizer and thresholds, so the environment cannot fake a drift.
  const encoding = (TOKENIZERS.includes(locked.tokenizer as TokenizerName) ? locked.tokenizer : 'o200k_base') as TokenizerName;
  const tokens = createTiktokenCounter(encoding);
  await tokens.load();
  const current = buildLock(tools, tokens, { riskThresholds: locked.riskThresholds, maxResponseTokens: locked.maxResponseTokens });
  const changes = diffLock(locked, current);
  (changes.length ? console.error : console.log)(formatLockCheck(changes, current, file).trimEnd());
  return changes.length ? 1 : 0;
}
