/**
 * End-to-end specs in a real browser: Debian's Chromium against `serve` (never a downloaded
 * browser), plus the Electron spec where an Electron binary exists.
 */
import { defineConfig } from '@playwright/test';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  fullyParallel: false,
  workers: 2,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    },
    viewport: { width: 1360, height: 820 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'chromium', testIgnore: /electron\// },
    // Each Electron spec starts the whole app and its engine, slower on a hosted runner than a page.
    { name: 'electron', testMatch: /electron\/.*\.spec\.ts/, timeout: 90_000 },
  ],
});
