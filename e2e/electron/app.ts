/**
 * Launches the Electron app on a fresh data folder, where an Electron binary exists; elsewhere
 * says so plainly once and lets the specs skip.
 */
import { _electron as electron, type ElectronApplication } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../main/testing/serve-process';

function electronBinary(): string | null {
  const packageDir = join(PROJECT_ROOT, 'node_modules/electron');
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

export const binary = electronBinary();
if (!binary) {
  console.log('Electron specs NOT RUN: no Electron binary in node_modules/electron/dist (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1?).');
}

/** Runs `use` against a launched app, then closes it and removes its data folder. */
export async function withElectronApp(use: (app: ElectronApplication) => Promise<void>): Promise<void> {
  execFileSync(process.execPath, [join(PROJECT_ROOT, 'scripts/electron-native.mjs')], { stdio: 'inherit' });
  const userData = mkdtempSync(join(tmpdir(), 'cqc-electron-'));
  const app = await electron.launch({ executablePath: binary!, args: [PROJECT_ROOT], env: { ...process.env, CQC_USER_DATA_DIR: userData } });
  try {
    await use(app);
  } finally {
    await app.close();
    rmSync(userData, { recursive: true, force: true });
  }
}
