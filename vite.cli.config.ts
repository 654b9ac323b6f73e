/**
 * Builds the command line (`out/cli/bin.js`) for plain Node: the engine and the CLI as ES
 * modules, every package dependency but TypeBox left as an import. The package's `bin` runs it,
 * so an installed tarball needs no TypeScript and no build step. A fleet's worker threads run
 * `out/cli/fleet-worker.js` (main/engine/fleet/workers.ts finds it beside the code it is in, so
 * the code both entries share goes to a chunk in `out/cli/` too).
 */
import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };

/**
 * Bundled, not imported: TypeBox is ~700 small ES modules, and Node resolves, reads and keeps a
 * record of each one it loads, most of them builders the command table never uses. Bundled, only
 * what is used comes along, in a few chunks (docs/decisions/perf-start.md has the figures).
 */
const BUNDLED = ['typebox'];
const external = [
  ...Object.keys(pkg.dependencies).filter((name) => !BUNDLED.includes(name)),
  ...builtinModules,
  /^node:/,
];

export default defineConfig({
  build: {
    ssr: true,
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: true,
    // One ~1 MB file read from disk: vite's 500 kB hint is for pages on a network; rolldown's
    // plugin timings only say the machine was busy (electron.vite.config.ts says the same).
    chunkSizeWarningLimit: 2048,
    rollupOptions: {
      checks: { bundlerTimings: false },
      external: (id) =>
        external.some((name) => (typeof name === 'string' ? id === name || id.startsWith(`${name}/`) : name.test(id))),
      input: { bin: resolve('main/cli/bin.ts'), 'fleet-worker': resolve('main/engine/fleet/fleet-worker.ts') },
      output: {
        format: 'es',
        entryFileNames: '[name].js',
        chunkFileNames: '[name]-[hash].js',
        // Node keeps each chunk's source in memory as a string, two bytes a character if a single
        // one is not Latin-1 (a "…" in a comment did it): ASCII escapes and no doc comments keep
        // it one byte a character and smaller, about 3 MB less at `serve`'s ready line. The source
        // maps still lead to the commented TypeScript.
        comments: false,
        charset: 'ascii',
      },
    },
  },
  ssr: { noExternal: BUNDLED },
});
