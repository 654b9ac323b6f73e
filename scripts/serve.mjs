/**
 * `npm run serve`: installs on first run, makes sure the console UI is built, then runs the engine
 * from source in this same process, so SIGINT/SIGTERM reach it directly and it can close cleanly
 * (docs/contract/console.md §1).
 */
import { ensureInstall } from './ensure-install.mjs';
import { ensureRendererBuild } from './renderer-build.mjs';

// Before anything from node_modules is imported: a fresh clone installs first (ensure-install.mjs).
ensureInstall();
ensureRendererBuild();
const { register } = await import('tsx/esm/api');
register();
await import('../main/serve.ts');
