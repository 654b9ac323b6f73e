/**
 * better-sqlite3 is a native addon, built once per ABI. node_modules holds the build for Node
 * (tests, `serve`); `npm start` builds a second copy for Electron's ABI into .electron-native/
 * (scripts/electron-native.mjs), and the app loads that one. Neither path overwrites the other,
 * so `npm test` and `npm start` work in either order.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const ELECTRON_NATIVE_DIR = '.electron-native';

export function electronNativeBinding(appPath: string): string | undefined {
  const binding = join(
    appPath,
    ELECTRON_NATIVE_DIR,
    'node_modules',
    'better-sqlite3',
    'build',
    'Release',
    'better_sqlite3.node',
  );
  return existsSync(binding) ? binding : undefined;
}
