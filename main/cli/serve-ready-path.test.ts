/**
 * What `serve` loads before its ready line (docs/decisions/perf-start.md): the built command line,
 * started in memory, must not have loaded what is only needed on first use: TypeBox's compiler
 * and Value (first command or request), the fleet's sketches, the conformance reports' JUnit
 * builder, the renderer's file server (first file asked for), fastify's schema compilers (Ajv,
 * fast-json-stringify: first route with a schema); nor TypeBox as a package of its own (the CLI
 * bundles it). A module resolve hook (imports) and a wrapped `Module._resolveFilename` (what
 * CommonJS packages require) list every file resolved until the ready line; a chunk of out/cli is
 * known by its source map's sources.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../out/cli/bin.js', import.meta.url));
const OUT_CLI = dirname(BIN);
const dir = mkdtempSync(join(tmpdir(), 'cqc-ready-path-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Registers a resolve hook (on the loader's thread) that appends each resolved URL to a file. */
function writeHook(listFile: string): string {
  const required = join(dir, 'required.cjs');
  writeFileSync(
    required,
    `const Module = require('node:module');
const { appendFileSync } = require('node:fs');
const { pathToFileURL } = require('node:url');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (...args) {
  const file = resolve.apply(this, args);
  if (file.startsWith('/')) appendFileSync(${JSON.stringify(listFile)}, pathToFileURL(file).href + '\\n');
  return file;
};
`,
  );
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(listFile)}, resolved.url + '\\n');
  return resolved;
}
`,
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register, createRequire } from 'node:module';
createRequire(import.meta.url)(${JSON.stringify(required)});
register(${JSON.stringify(pathToFileURL(hooks).href)});
`,
  );
  return register;
}

/** Every URL resolved from the start to the ready line, the process ended there. */
async function resolvedAtReady(): Promise<string[]> {
  const listFile = join(dir, 'resolved.txt');
  writeFileSync(listFile, '');
  const child = spawn(process.execPath, ['--import', writeHook(listFile), BIN, 'serve', '--ephemeral', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    for await (const line of createInterface({ input: child.stdout })) {
      if (line.includes('"ready"')) return readFileSync(listFile, 'utf8').split('\n').filter(Boolean);
    }
    throw new Error('serve ended before its ready line');
  } finally {
    child.kill('SIGKILL');
  }
}

/** What a file stands for: its own path, or for a chunk of out/cli the sources its map names. */
function sourcesOf(url: string): string[] {
  if (!url.startsWith('file:')) return [url];
  const path = fileURLToPath(url);
  const map = `${path}.map`;
  if (dirname(path) !== OUT_CLI || !existsSync(map)) return [path];
  return (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources;
}

describe('serve, to its ready line', () => {
  it('loads none of what waits for first use, and TypeBox only as bundled', { timeout: 60_000 }, async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first`);
    const resolved = await resolvedAtReady();
    const sources = [...new Set(resolved.flatMap(sourcesOf))];
    // The hook saw the start: the CLI's own chunks and fastify are in the list.
    expect(sources.some((source) => source.endsWith('main/cli/serve.ts'))).toBe(true);
    expect(resolved.some((url) => url.includes('/node_modules/fastify/'))).toBe(true);

    const early = (pattern: RegExp) => sources.filter((source) => pattern.test(source));
    expect(early(/typebox\/build\/(compile|value)\//)).toEqual([]);
    expect(early(/node_modules\/(junit-report-builder|@datadog\/sketches-js)\//)).toEqual([]);
    expect(early(/node_modules\/@fastify\/(send|static)\//)).toEqual([]);
    // Required by fastify itself (CommonJS): seen by the wrapped resolver.
    expect(resolved.some((url) => url.includes('/node_modules/avvio/'))).toBe(true);
    // (fastify's error serializer, `fast-json-stringify/lib/serializer`, is fastify's own.)
    expect(early(/node_modules\/(ajv|ajv-formats|@fastify\/[\w-]+-compiler)\/|fast-json-stringify\/index\.js/)).toEqual(
      [],
    );
    expect(resolved.filter((url) => url.includes('/node_modules/typebox/'))).toEqual([]);
  });
});
