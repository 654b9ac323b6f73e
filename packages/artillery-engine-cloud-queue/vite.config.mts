/**
 * Builds the Artillery engine (`out/artillery-engine/engine.cjs`) from the console's own player
 * core: one CommonJS file, every dependency inside it, because Artillery loads engines with
 * `require` and a distributed run installs the engine on machines that have no clone.
 */
import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const root = resolve(import.meta.dirname, '../..');

export default defineConfig({
  root,
  build: {
    ssr: resolve(import.meta.dirname, 'src/engine.ts'),
    outDir: resolve(root, 'out/artillery-engine'),
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: true,
    rollupOptions: {
      checks: { bundlerTimings: false },
      external: [...builtinModules, /^node:/],
      output: { format: 'cjs', entryFileNames: 'engine.cjs', exports: 'named' },
    },
  },
  ssr: { noExternal: true },
});
