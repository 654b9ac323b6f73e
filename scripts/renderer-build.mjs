/**
 * Builds the app (electron-vite) when the renderer's sources are newer than its last build, so
 * `npm run serve` always serves the UI you have and starts at once when nothing changed.
 * Build output goes to stderr: stdout belongs to the ready line.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestMtime } from './newest-mtime.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = join(root, 'out/renderer/index.html');
const sources = ['renderer', 'main/engine/api', 'electron.vite.config.ts', 'package-lock.json'];

export function rendererBuildIsStale() {
  if (!existsSync(builtIndex)) return true;
  const built = statSync(builtIndex).mtimeMs;
  return sources.some((source) => newestMtime(join(root, source)) > built);
}

export function ensureRendererBuild() {
  if (!rendererBuildIsStale()) return;
  process.stderr.write('building the console UI…\n');
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: ['ignore', process.stderr, process.stderr],
    },
  );
  if (result.status !== 0) {
    process.stderr.write('the console UI did not build; the engine starts anyway and the page says so\n');
  }
}
