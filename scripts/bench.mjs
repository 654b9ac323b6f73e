/**
 * `npm run bench`: runs every benchmark in bench/ one after another and prints their numbers.
 * Benchmarks print ratios against a baseline measured side by side in the same run; they are
 * never timed tests. `npm run bench -- <name> [options]` runs only the ones whose file name
 * contains it, passing them the options (`npm run bench -- traffic-memory --minutes 1`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'bench');
const filter = process.argv[2] ?? '';
const options = process.argv.slice(3);
const benches = existsSync(dir)
  ? readdirSync(dir)
      .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
      .sort()
  : [];

if (benches.length === 0) {
  console.log(filter ? `no benchmark matches "${filter}"` : 'no benchmarks yet: add bench/<name>.bench.ts');
  process.exit(0);
}
let failed = 0;
for (const bench of benches) {
  console.log(`\n== ${bench}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(dir, bench), ...options], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
