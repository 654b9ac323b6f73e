/**
 * Each Playwright worker gets its own console: `serve --port 0 --ephemeral` as a real process,
 * exactly as CI and users start it.
 */
import { test as base } from '@playwright/test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT, startServe, type ServeProcess } from '../main/testing/serve-process';
import { adminApi } from './admin-api';
import { ConsolePage } from './pages/console-page';

export const test = base.extend<
  { consolePage: ConsolePage; firstRun: boolean },
  { served: ServeProcess; ownConsole: string }
>({
  // Specs share their worker's console, and with it its players' sessions and state. A spec that
  // drives a player through a whole journey (the guided demo) names its own console with
  // `test.use({ ownConsole: 'demo' })`: a worker option, so Playwright gives it a worker, and a
  // console, of its own.
  ownConsole: ['', { scope: 'worker', option: true }],
  // The guided demo opens by itself on a browser's first run (docs/demo.md). A spec checks its
  // area alone, so each browser here has closed the demo before; `test.use({ firstRun: true })`
  // gives a spec the first run a new user gets.
  firstRun: [false, { option: true }],
  context: async ({ context, firstRun, served }, use) => {
    if (!firstRun) await context.addInitScript(() => localStorage.setItem('cqc-demo-dismissed', '1'));
    // The console keeps the theme chosen (and the demo closed) for every browser that opens it
    // (GET/PATCH /admin/api/preferences): each test starts from the system's theme, as a new
    // browser did when the choice was the browser's alone, and a first run from a demo never closed.
    await adminApi(served.ready, 'PATCH', '/preferences', {
      theme: 'system',
      ...(firstRun ? { demoDismissed: false } : {}),
    });
    await use(context);
  },
  served: [
    async ({ ownConsole }, use) => {
      if (!existsSync(join(PROJECT_ROOT, 'out/renderer/index.html')))
        throw new Error('the console UI is not built: run `npm run build` first');
      const served = await startServe(['--port', '0', '--ephemeral']);
      if (ownConsole) process.stderr.write(`e2e: console ${served.ready.urls.console} is ${ownConsole}'s own\n`);
      await use(served);
      await served.stop('SIGTERM');
    },
    { scope: 'worker' },
  ],
  consolePage: async ({ page, served }, use) => {
    const consolePage = new ConsolePage(page);
    await consolePage.open(served.ready.urls.console);
    await use(consolePage);
  },
});

export { expect } from '@playwright/test';
