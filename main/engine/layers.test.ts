// The engine's files import one another without a cycle, and each area only the areas under it
// (ENGINE_LAYERS in eslint.layers.js): checked on the imports as resolved, type-only ones included.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseCircular, parseDependencyTree, type DependencyTree } from 'dpdm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const ENGINE = join(ROOT, 'main/engine');
type Layers = Readonly<Record<string, readonly string[]>>;
// Read at run time: the table is plain JavaScript that eslint.config.js imports too.
const { ENGINE_LAYERS } = (await import(pathToFileURL(join(ROOT, 'eslint.layers.js')).href)) as {
  ENGINE_LAYERS: Layers;
};

/** Test support (TEST_SUPPORT in eslint.layers.js): testing/ folders, testing.ts, testing-*.ts. */
const isTestSupport = (path: string) => /(^|\/)testing(\/|\.ts$)|(^|\/)testing-[^/]*\.ts$/.test(path);

/** Every .ts file under `dir` but tests and declarations, relative to ROOT. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'))
    .map((file) => relative(ROOT, join(dir, file)).replaceAll('\\', '/'));
}

/** The import graph of `files` as dpdm resolves it (through tsconfig.json: `./x.js` is `./x.ts`). */
function importGraph(files: string[]): Promise<DependencyTree> {
  return parseDependencyTree(files, {
    context: ROOT,
    cwd: ROOT,
    tsconfig: join(ROOT, 'tsconfig.json'),
    // Not transformed: `import type` counts, as a cycle of types is still two files each needing the other.
    transform: false,
    exclude: /node_modules|\.test\.ts$/,
  });
}

/** Each cycle once, as `a.ts → b.ts → a.ts` relative to `base`. */
function cyclesOf(tree: DependencyTree, base: string): string[] {
  return parseCircular(tree).map((cycle) =>
    [...cycle, cycle[0]!].map((file) => relative(base, join(ROOT, file)).replaceAll('\\', '/')).join(' → '),
  );
}

/** The engine unit of a file under main/engine/: its area folder, traffic/log, or itself at the root. */
function unitOf(file: string): string {
  const path = relative(ENGINE, join(ROOT, file)).replaceAll('\\', '/');
  if (path.startsWith('traffic/log/')) return 'traffic/log';
  const slash = path.indexOf('/');
  return slash === -1 ? path : path.slice(0, slash);
}

/** Every cross-unit import of a production file that `layers` does not allow, as `from → to`. */
function layerViolations(tree: DependencyTree, layers: Layers): string[] {
  const found = new Set<string>();
  for (const [file, dependencies] of Object.entries(tree)) {
    if (!file.startsWith('main/engine/') || isTestSupport(file) || file.endsWith('.test.ts')) continue;
    const from = unitOf(file);
    if (!layers[from]) found.add(`${file}: its unit ${from} is not in ENGINE_LAYERS`);
    for (const { id } of dependencies ?? []) {
      if (!id?.startsWith('main/engine/')) continue;
      const to = unitOf(id);
      if (isTestSupport(id)) found.add(`${file} → ${id} (test support)`);
      else if (to !== from && !layers[from]?.includes(to)) found.add(`${file} → ${id} (${from} → ${to})`);
    }
  }
  return [...found].sort();
}

/** A cycle among the units of `layers`, as `a → b → a`, or null when they form layers. */
function layerCycle(layers: Layers): string | null {
  const done = new Set<string>();
  const visit = (unit: string, path: string[]): string | null => {
    const at = path.indexOf(unit);
    if (at !== -1) return [...path.slice(at), unit].join(' → ');
    if (done.has(unit)) return null;
    for (const next of layers[unit] ?? []) {
      const cycle = visit(next, [...path, unit]);
      if (cycle) return cycle;
    }
    done.add(unit);
    return null;
  };
  for (const unit of Object.keys(layers)) {
    const cycle = visit(unit, []);
    if (cycle) return cycle;
  }
  return null;
}

describe('engine import layers', () => {
  let engine: DependencyTree;
  const fixture = join(tmpdir(), `engine-cycle-${process.pid}`);
  // About 4 s of CPU; more time only for a machine busy with the rest of the suite.
  beforeAll(async () => {
    engine = await importGraph(sourceFiles(ENGINE));
  }, 60_000);
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  it('has no import cycle between engine files', () => {
    expect(Object.keys(engine).filter((file) => file.startsWith('main/engine/')).length).toBeGreaterThan(300);
    expect(cyclesOf(engine, ENGINE)).toEqual([]);
  });

  it('finds a cycle introduced in a copy, a type-only one too', async () => {
    // A store module that reads a player type, and a player that reads the store: the kind of arrow
    // that slips in. The same detector, options and resolution as the engine's own check.
    mkdirSync(join(fixture, 'store'), { recursive: true });
    mkdirSync(join(fixture, 'player'), { recursive: true });
    writeFileSync(
      join(fixture, 'store/store.ts'),
      "import type { Player } from '../player/player.js';\nexport let last: Player | null = null;\n",
    );
    writeFileSync(
      join(fixture, 'player/player.ts'),
      "import { last } from '../store/store.js';\nexport class Player { seen = last; }\n",
    );
    writeFileSync(
      join(fixture, 'player/clean.ts'),
      "import { Player } from './player.js';\nexport const make = () => new Player();\n",
    );
    const cycles = cyclesOf(await importGraph(sourceFiles(fixture)), fixture);
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toMatch(/^(store\/store\.ts → player\/player\.ts|player\/player\.ts → store\/store\.ts) → /);
  });

  it('imports across areas only where ENGINE_LAYERS allows', () => {
    expect(layerViolations(engine, ENGINE_LAYERS)).toEqual([]);
    // The same graph against a table without player → cloud-queue names exactly those imports.
    const without = { ...ENGINE_LAYERS, player: ENGINE_LAYERS.player!.filter((unit) => unit !== 'cloud-queue') };
    const refused = layerViolations(engine, without);
    expect(refused.length).toBeGreaterThan(0);
    expect(
      refused.every((line) => line.startsWith('main/engine/player/') && line.endsWith('(player → cloud-queue)')),
    ).toBe(true);
  });

  it('keeps ENGINE_LAYERS a stack of layers, without a cycle', () => {
    expect(layerCycle(ENGINE_LAYERS)).toBeNull();
    expect(layerCycle({ ...ENGINE_LAYERS, store: [...ENGINE_LAYERS.store!, 'player'] })).toMatch(
      /store → player → .*store/,
    );
  });
});
