/**
 * The same frame flow as console.spec.ts, inside the Electron app (IPC transport). Runs where an
 * Electron binary exists; elsewhere it says so plainly and is skipped.
 */
import { _electron as electron, expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../main/testing/serve-process';
import { ConsolePage } from '../pages/console-page';

function electronBinary(): string | null {
  const packageDir = join(PROJECT_ROOT, 'node_modules/electron');
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

const binary = electronBinary();
if (!binary) {
  console.log('Electron spec NOT RUN: no Electron binary in node_modules/electron/dist (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1?).');
}

test.describe('the console frame in Electron', () => {
  test.skip(!binary, 'no Electron binary on this machine');

  test('shows the four service URLs; stopping and advancing the clock by 1 h moves engine time by exactly 1 h', async () => {
    execFileSync(process.execPath, [join(PROJECT_ROOT, 'scripts/electron-native.mjs')], { stdio: 'inherit' });
    const userData = mkdtempSync(join(tmpdir(), 'cqc-electron-'));
    const app = await electron.launch({
      executablePath: binary!,
      args: [PROJECT_ROOT],
      env: { ...process.env, CQC_USER_DATA_DIR: userData },
    });
    try {
      const consolePage = new ConsolePage(await app.firstWindow());
      await consolePage.waitUntilLive();
      for (const service of ['console', 'login', 'control', 'cloudQueue'] as const) {
        await expect(consolePage.serviceUrl(service)).toHaveText(/^http:\/\/127\.0\.0\.1:\d+$/);
      }
      await consolePage.setSpeed('Stop');
      const before = await consolePage.engineNow();
      await consolePage.advance('1 h');
      await expect(consolePage.engineTime).toHaveAttribute('data-now', String(before + 3_600_000));
    } finally {
      await app.close();
      rmSync(userData, { recursive: true, force: true });
    }
  });
});
