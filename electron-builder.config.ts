/**
 * The desktop app's installers (`npm run package:desktop`, docs/desktop.md): AppImage and deb on
 * Linux, a dmg on macOS, an NSIS installer on Windows, each built on its own OS for its own arch.
 *
 * better-sqlite3 is the one native module. node_modules keeps its build for Node (the tests,
 * `serve`); scripts/electron-native.mjs builds the Electron one into .electron-native/, and the app
 * loads that one wherever it finds it beside its code (main/shell/native-binding.ts). The package
 * takes that build, unpacked from the asar archive (a .node file is loaded from disk), and leaves
 * out the Node build, so electron-builder rebuilds nothing in node_modules (`npmRebuild: false`):
 * packaging never breaks `npm test` on the same clone.
 *
 * The app's name for the OS (its data folder, `<appData>/cloud-queue-console`, shared with
 * `serve`'s default) comes from package.json `name`, which Electron reads; `productName` here only
 * names the executable, the installers and the menus. Setting it in package.json would move the
 * data folder.
 */
import type { Configuration } from 'electron-builder';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ELECTRON_NATIVE_DIR } from './main/shell/native-binding';

/** Where electron-builder puts the installers: kept out of git with the rest of the build (`out/`). */
export const OUTPUT_DIR = 'out/desktop';

/** The Electron build of better-sqlite3, as scripts/electron-native.mjs leaves it. */
const ELECTRON_BINDING_DIR = `${ELECTRON_NATIVE_DIR}/node_modules/better-sqlite3/build/Release`;
const ELECTRON_BINDING_FILE = 'better_sqlite3.node';
export const ELECTRON_BINDING = `${ELECTRON_BINDING_DIR}/${ELECTRON_BINDING_FILE}`;

/** builder-util's `Arch` enum, by number (a type-only import keeps electron-builder out of the tests). */
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'] as const;

/** What a pack is for: electron-builder's `electronPlatformName` ('linux', 'darwin', 'win32', 'mas') and `Arch`. */
export interface PackTarget {
  electronPlatformName: string;
  arch: number;
}

/**
 * Refuses to pack without the Electron build of better-sqlite3 for the Electron, OS and arch being
 * packed: a package without it, or with another arch's, installs fine and fails at its first start.
 */
export function checkElectronBinding(projectDir: string, target: PackTarget): void {
  const stampFile = join(projectDir, ELECTRON_NATIVE_DIR, 'stamp.json');
  const rerun = 'run `node scripts/electron-native.mjs` on this machine first (npm run package:desktop does)';
  if (!existsSync(join(projectDir, ELECTRON_BINDING)) || !existsSync(stampFile)) {
    throw new Error(`no Electron build of better-sqlite3 in ${ELECTRON_NATIVE_DIR}/: ${rerun}`);
  }
  const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as { electron?: string; platform?: string; arch?: string };
  const electron = (createRequire(join(projectDir, 'package.json'))('electron/package.json') as { version: string })
    .version;
  const wanted = {
    electron,
    platform: target.electronPlatformName === 'mas' ? 'darwin' : target.electronPlatformName,
    arch: ARCH_NAMES[target.arch],
  };
  const built = { electron: stamp.electron, platform: stamp.platform, arch: stamp.arch };
  if (JSON.stringify(built) !== JSON.stringify(wanted)) {
    throw new Error(
      `the Electron build of better-sqlite3 is for ${JSON.stringify(built)}, this package is for ${JSON.stringify(wanted)}: ${rerun}`,
    );
  }
}

const config: Configuration = {
  appId: 'dev.cloud-queue-console.desktop',
  productName: 'Cloud Queue Console',
  copyright: 'Copyright © Cloud Queue Console contributors',
  directories: { buildResources: 'build', output: OUTPUT_DIR },
  // What the app loads and nothing else: the build (package.json "main" is out/main/index.js), the
  // Electron build of better-sqlite3, and the production node_modules, which electron-builder adds.
  files: [
    'out/main/**',
    'out/preload/**',
    'out/renderer/**',
    // A file set of its own: the app-dir walk skips every node_modules folder, this one too.
    { from: ELECTRON_BINDING_DIR, to: ELECTRON_BINDING_DIR, filter: [ELECTRON_BINDING_FILE] },
    // better-sqlite3's own build (Node's ABI) and its sources: the app never loads them.
    '!node_modules/better-sqlite3/{build,deps,src}{,/**}',
  ],
  asarUnpack: [ELECTRON_BINDING],
  // Electron's fuses, flipped in the packaged binary (docs/security.md): no running as plain Node
  // (ELECTRON_RUN_AS_NODE), no NODE_OPTIONS or --inspect to inject code, cookies encrypted on
  // disk, the app loaded only from its asar archive and that archive checked against its hash,
  // and no extra privileges for file:// pages (the console has its own scheme).
  electronFuses: {
    runAsNode: false,
    enableCookieEncryption: true,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    grantFileProtocolExtraPrivileges: false,
  },
  npmRebuild: false,
  beforePack: (context) => checkElectronBinding(context.packager.info.projectDir, context),
  icon: 'build/icon.png',
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Development',
    maintainer: 'Cloud Queue Console maintainers <maintainers@cloud-queue-console.invalid>',
    synopsis: 'A developer console for cloud queue integrations',
  },
  // Not signed by a Developer ID, not notarized (docs/desktop.md says how to open it). Ad-hoc
  // signed, which Apple Silicon needs to run it at all; hardened runtime is off, as ad-hoc signing
  // of Electron's frameworks requires.
  mac: {
    target: ['dmg'],
    category: 'public.app-category.developer-tools',
    identity: '-',
    hardenedRuntime: false,
  },
  win: { target: ['nsis'] },
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
  publish: null,
};

export default config;
