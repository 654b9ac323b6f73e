/**
 * Builds the Electron app: main process (ESM, dependencies external), the preload script (one
 * CommonJS file, as a sandboxed preload must be) and the renderer. `npm run serve` runs the
 * engine from source and serves this same renderer build.
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { CONSOLE_CSP_META } from './main/engine/console/csp';

/** Puts the one Content-Security-Policy into the page (Electron loads it from a file). */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'console-csp',
    transformIndexHtml: () => [
      { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONSOLE_CSP_META }, injectTo: 'head' },
    ],
  };
}

/**
 * Two warnings every build printed, about nothing wrong (the first minute is read for errors):
 * rolldown's plugin timings, which only say the machine was busy; and vite's "chunks larger than
 * 500 kB", a hint for pages fetched over a network. Each bundle here is read from this machine's
 * disk or loopback, one file on purpose: the limits sit above their sizes (main ~1 MB, renderer
 * ~0.7 MB), so a bundle that doubles still says so.
 */
const checks = { bundlerTimings: false };

export default defineConfig({
  main: {
    build: {
      chunkSizeWarningLimit: 2048,
      rollupOptions: {
        // The fleet's worker threads run fleet-worker.js, which main/engine/fleet/workers.ts finds
        // beside the chunk it is bundled in (chunks/), as the CLI build puts it beside bin.js.
        input: { index: resolve('main/index.ts'), 'fleet-worker': resolve('main/engine/fleet/fleet-worker.ts') },
        output: {
          entryFileNames: (chunk: { name: string }) =>
            chunk.name === 'fleet-worker' ? 'chunks/fleet-worker.js' : '[name].js',
        },
        checks,
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve('preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
        checks,
      },
    },
  },
  renderer: {
    root: resolve('renderer'),
    // The engine API contract under one name (renderer/tsconfig.json has the same path).
    resolve: { alias: { '@engine-api': resolve('main/engine/api') } },
    plugins: [react(), contentSecurityPolicy()],
    build: {
      outDir: resolve('out/renderer'),
      minify: true,
      sourcemap: true,
      chunkSizeWarningLimit: 1536,
      rollupOptions: { input: resolve('renderer/index.html'), checks },
    },
  },
});
