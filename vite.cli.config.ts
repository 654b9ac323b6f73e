/**
 * Builds the command line (`out/cli/bin.js`) for plain Node: the engine and the CLI in one ES
 * module, every package dependency left as an import. The package's `bin` runs it, so an
 * installed tarball needs no TypeScript and no build step.
 */
import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };

const external = [...Object.keys(pkg.dependencies), ...builtinModules, /^node:/];

export default defineConfig({
  build: {
    ssr: resolve('main/cli/bin.ts'),
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
      output: { format: 'es', entryFileNames: 'bin.js' },
    },
  },
  ssr: { noExternal: [] },
});
