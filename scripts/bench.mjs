/**
 * `npm run bench`: runs every benchmark in bench/ one after another and prints their numbers.
 * Benchmarks print ratios against a baseline measured side by side in the same run; they are
 * never timed tests. `npm run bench -- <name> [options]` runs only the ones whose file name
 * contains it, passing them the options (`npm run bench -- traffic-memory --minutes 1`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureInstall } from './ensure-install.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'bench');
const filter = process.argv[2] ?? '';
const options = process.argv.slice(3);
const benches = existsSync(dir)
  ? readdirSync(dir)
      .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
      .sort()
  : [];

// The benches run through tsx, so a fresh clone installs first (ensure-install.mjs).
ensureInstall();
if (benches.length === 0) {
  console.log(filter ? `no benchmark matches "${filter}"` : 'no benchmarks yet: add bench/<name>.bench.ts');
  process.exit(0);
}
// Each bench appends the figures it is held to (bench/aims.ts), one JSON line each; listed at the end.
const aimsDir = mkdtempSync(join(tmpdir(), 'cqc-bench-aims-'));
const aimsFile = join(aimsDir, 'aims.jsonl');
let failed = 0;
for (const bench of benches) {
  console.log(`\n== ${bench}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(dir, bench), ...options], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, BENCH_AIMS: aimsFile },
  });
  if (result.status !== 0) failed++;
}
const aims = existsSync(aimsFile)
  ? readFileSync(aimsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : [];
rmSync(aimsDir, { recursive: true, force: true });
if (aims.length > 0) {
  console.log('\n== every figure with its aim, measured side by side in this run');
  const width = Math.max(...aims.map((aim) => aim.label.length));
  for (const aim of aims)
    console.log(
      `  ${aim.met ? 'met   ' : 'MISSED'}  ${aim.label.padEnd(width)}  ${aim.valueText.padStart(9)}  aim ${aim.aimText}${aim.note ? `  (${aim.note})` : ''}`,
    );
}
process.exit(failed ? 1 : 0);
