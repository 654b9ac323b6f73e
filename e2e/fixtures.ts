/**
 * Each Playwright worker gets its own console: `serve --port 0 --ephemeral` as a real process,
 * exactly as CI and users start it.
 */
import { test as base } from '@playwright/test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT, startServe, type ServeProcess } from '../main/testing/serve-process';
import { ConsolePage } from './pages/console-page';

export const test = base.extend<{ consolePage: ConsolePage }, { served: ServeProcess }>({
  served: [
    async ({}, use) => {
      if (!existsSync(join(PROJECT_ROOT, 'out/renderer/index.html'))) throw new Error('the console UI is not built: run `npm run build` first');
      const served = await startServe(['--port', '0', '--ephemeral']);
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
