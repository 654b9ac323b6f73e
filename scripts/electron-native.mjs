/**
 * The start path of the Electron app (`npm start`, `npm run dev`), run before Electron starts:
 *   1. makes sure the Electron binary is there (Electron downloads it on first use);
 *   2. builds better-sqlite3 for Electron's ABI into .electron-native/, a copy beside
 *      node_modules. node_modules keeps the build for Node, which `npm test` and `npm run serve`
 *      use, so the two never overwrite each other and work in either order.
 * Does nothing when both are already in place for this Electron and better-sqlite3 version.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const stage = join(root, '.electron-native');
const stampFile = join(stage, 'stamp.json');
const binding = join(stage, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');

const electronVersion = require('electron/package.json').version;
const sqliteVersion = require('better-sqlite3/package.json').version;
const wanted = { electron: electronVersion, betterSqlite3: sqliteVersion, platform: process.platform, arch: process.arch };

function stampMatches() {
  if (!existsSync(stampFile) || !existsSync(binding)) return false;
  return JSON.stringify(JSON.parse(readFileSync(stampFile, 'utf8'))) === JSON.stringify(wanted);
}

// 1. The binary: requiring the electron package resolves (and if needed downloads) it.
try {
  require('electron');
} catch (error) {
  console.error(`The Electron binary is missing and could not be downloaded: ${error.message}`);
  console.error('Headless use needs no Electron: `npm run serve` runs the whole console in a browser.');
  process.exit(1);
}

// 2. better-sqlite3 for Electron's ABI.
if (stampMatches()) process.exit(0);
console.error(`building better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (${process.platform}-${process.arch})…`);
rmSync(stage, { recursive: true, force: true });
mkdirSync(join(stage, 'node_modules'), { recursive: true });
writeFileSync(join(stage, 'package.json'), JSON.stringify({ name: 'electron-native', private: true, dependencies: { 'better-sqlite3': sqliteVersion } }, null, 2));
cpSync(dirname(require.resolve('better-sqlite3/package.json')), join(stage, 'node_modules/better-sqlite3'), {
  recursive: true,
  filter: (source) => !source.includes(`${join('better-sqlite3', 'build')}`),
});
const { rebuild } = await import('@electron/rebuild');
await rebuild({ buildPath: stage, electronVersion, arch: process.arch, onlyModules: ['better-sqlite3'], force: true });
if (!existsSync(binding)) {
  console.error(`better-sqlite3 was rebuilt but ${binding} is missing`);
  process.exit(1);
}
writeFileSync(stampFile, JSON.stringify(wanted, null, 2));
console.error('better-sqlite3 for Electron is ready');
