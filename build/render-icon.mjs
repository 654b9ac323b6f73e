/**
 * Renders build/icon.svg to build/icon.png (512×512, transparent corners), the one icon
 * electron-builder turns into each OS's format (AppImage/deb PNGs, the macOS .icns, the Windows
 * .ico). Run again after editing the SVG: `node build/render-icon.mjs`. Uses Debian's Chromium,
 * as the end-to-end specs do (CHROMIUM_PATH to point elsewhere); nothing is downloaded.
 */
import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const SIZE = 512;
const here = import.meta.dirname;
const svg = readFileSync(join(here, 'icon.svg'), 'utf8');

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: join(here, 'icon.png'), omitBackground: true });
} finally {
  await browser.close();
}
