/**
 * Launches the Electron app on a fresh data folder, where an Electron binary exists. Electron
 * downloads its binary on first use, which the team's machines cannot: there the specs say so
 * plainly, once per process, and skip, naming the workflow that runs them on GitHub's hosted
 * runners (docs/desktop.md).
 */
import { _electron as electron, type ElectronApplication } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../main/testing/serve-process';

/** The workflow that runs these specs where Electron can be downloaded. */
export const DESKTOP_WORKFLOW = '.github/workflows/desktop.yml';

function electronBinary(): string | null {
  const packageDir = join(PROJECT_ROOT, 'node_modules/electron');
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

export const binary = electronBinary();

/** Why the specs skip here: the skip reason in the report, and the line on the console. */
export const NOT_RUN_REASON = `no Electron binary on this machine: the desktop specs run on GitHub's hosted runners (${DESKTOP_WORKFLOW})`;

if (!binary) {
  console.log(
    `Electron specs NOT RUN: ${NOT_RUN_REASON}. Electron downloads its binary to node_modules/electron/dist on first use, which failed or never ran here.`,
  );
}

let nativeReady = false;

/** The Electron build of better-sqlite3 (scripts/electron-native.mjs), once per worker. */
function prepareNative(): void {
  if (nativeReady) return;
  execFileSync(process.execPath, [join(PROJECT_ROOT, 'scripts/electron-native.mjs')], { stdio: 'inherit' });
  nativeReady = true;
}

/** A new, empty folder for the app's user data: its data dir (`app.getPath('userData')`). */
export function newUserDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'cqc-electron-'));
}

/** Starts the built app (package.json "main", so `npm run build` first) with `userData` as its data folder. */
export async function launchElectronApp(userData: string): Promise<ElectronApplication> {
  prepareNative();
  return electron.launch({
    executablePath: binary!,
    args: [PROJECT_ROOT],
    env: { ...process.env, CQC_USER_DATA_DIR: userData },
  });
}

/** Runs `use` against a launched app, then quits it and removes its data folder. */
export async function withElectronApp(
  use: (app: ElectronApplication, userData: string) => Promise<void>,
): Promise<void> {
  const userData = newUserDataDir();
  try {
    const app = await launchElectronApp(userData);
    try {
      await use(app, userData);
    } finally {
      await app.close();
    }
  } finally {
    rmSync(userData, { recursive: true, force: true });
  }
}
