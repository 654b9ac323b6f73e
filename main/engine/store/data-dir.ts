/**
 * The default data folder (docs/contract/console.md §1): the OS app-data folder `cloud-queue-console`, the same
 * place Electron's userData points to for an app of that name.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_DIR_NAME = 'cloud-queue-console';

export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_DIR_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_DIR_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_DIR_NAME);
}
