/**
 * `npm run serve`: makes sure the console UI is built, then runs the engine from source in this
 * same process, so SIGINT/SIGTERM reach it directly and it can close cleanly (docs/contract/console.md §1).
 */
import { register } from 'tsx/esm/api';
import { ensureRendererBuild } from './renderer-build.mjs';

ensureRendererBuild();
register();
await import('../main/serve.ts');
