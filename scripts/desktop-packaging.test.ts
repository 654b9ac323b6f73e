/**
 * The desktop app is built and tested on GitHub's hosted runners (.github/workflows/desktop.yml),
 * never here: this machine cannot download Electron. What can be checked here is that the workflow
 * and the packager config (electron-builder.config.ts) hold together with the repository: the
 * scripts and files they name exist, the packages hold what the app loads, the workflow is valid,
 * and the Electron specs, skipped here, say so and name the workflow. docs/desktop.md.
 */
import { validateWorkflow } from '@action-validator/core';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import config, { checkElectronBinding, ELECTRON_BINDING, OUTPUT_DIR } from '../electron-builder.config.js';
import { electronNativeBinding } from '../main/shell/native-binding.js';
import { PROJECT_ROOT } from '../main/testing/serve-process.js';

const WORKFLOW = '.github/workflows/desktop.yml';
const workflow = readFileSync(join(PROJECT_ROOT, WORKFLOW), 'utf8');
const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  main: string;
  productName?: string;
  scripts: Record<string, string>;
};

/** Every `run:` command of the workflow (each is one line: no block scalars to miss). */
const runs = [...workflow.matchAll(/^\s*(?:- )?run: (.+)$/gm)].map((match) => match[1]!);

/** The packager's targets, per OS, by name. */
function targets(platform: 'linux' | 'mac' | 'win'): string[] {
  const target = config[platform]?.target;
  return (Array.isArray(target) ? target : [target]).map((entry) =>
    typeof entry === 'string' ? entry : (entry?.target ?? ''),
  );
}

/** Whether a `files` entry of the config takes `file` (the config uses `dir/**` globs and exact file sets). */
function packed(file: string): boolean {
  return (config.files as (string | { from: string; to: string; filter: string[] })[]).some((entry) =>
    typeof entry === 'string'
      ? !entry.startsWith('!') && entry.endsWith('/**') && file.startsWith(entry.slice(0, -2))
      : entry.filter.some((name) => `${entry.to}/${name}` === file),
  );
}

describe('the desktop workflow', () => {
  it('passes action-validator, which finds a broken workflow', () => {
    expect(validateWorkflow(workflow).errors).toEqual([]);
    expect(validateWorkflow(workflow.replace('runs-on:', 'runs-onn:')).errors).not.toEqual([]);
  });

  it('runs on the three hosted OSes, with a Node.js that Electron installs under', () => {
    expect(/os: \[(.+)\]/.exec(workflow)?.[1]?.split(/,\s*/)).toEqual([
      'ubuntu-latest',
      'macos-latest',
      'windows-latest',
    ]);
    const electronEngines = JSON.parse(readFileSync(join(PROJECT_ROOT, 'node_modules/electron/package.json'), 'utf8'))
      .engines.node as string;
    const wantedMajor = Number(/(\d+)\./.exec(electronEngines)![1]);
    expect(Number(/node-version: (\d+)/.exec(workflow)?.[1])).toBeGreaterThanOrEqual(wantedMajor);
  });

  it('calls only npm scripts and files that exist', () => {
    const scripts = runs.flatMap((run) => [...run.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]!));
    expect(scripts).toEqual(expect.arrayContaining(['build', 'test:unit', 'test:e2e', 'package:desktop']));
    for (const script of scripts) expect(pkg.scripts, `npm run ${script}`).toHaveProperty([script]);
    const files = runs.flatMap((run) => [...run.matchAll(/node (\S+\.m?[jt]s)/g)].map((match) => match[1]!));
    expect(files).toContain('scripts/electron-native.mjs');
    for (const file of files) expect(existsSync(join(PROJECT_ROOT, file)), file).toBe(true);
  });

  it('keeps the installers the config builds, from where it puts them', () => {
    const kept = [...workflow.matchAll(/^\s+(\S+\/\*\.(\w+))$/gm)].map((match) => ({
      path: match[1]!,
      ext: match[2]!,
    }));
    expect(kept.map(({ ext }) => ext).sort()).toEqual(['AppImage', 'deb', 'dmg', 'exe']);
    for (const { path } of kept) expect(dirname(path)).toBe(OUTPUT_DIR);
  });
});

describe('the packager config', () => {
  it('builds AppImage and deb, a dmg and an NSIS installer, from `npm run package:desktop`', () => {
    expect(targets('linux').sort()).toEqual(['AppImage', 'deb']);
    expect(targets('mac')).toEqual(['dmg']);
    expect(targets('win')).toEqual(['nsis']);
    // The guard in the config needs the Electron build of better-sqlite3 made first.
    expect(pkg.scripts['package:desktop']).toMatch(
      /node scripts\/electron-native\.mjs && electron-builder --config electron-builder\.config\.ts /,
    );
  });

  it('names the app without moving its data folder: Electron names it from package.json, which has no productName', () => {
    expect(config.productName).toBe('Cloud Queue Console');
    expect(pkg.productName).toBeUndefined();
  });

  it('packs the entry points the app loads: package.json "main", the preload script, the console page', () => {
    expect(pkg.main).toBe('out/main/index.js');
    for (const file of [pkg.main, 'out/preload/index.cjs', 'out/renderer/index.html'])
      expect(packed(file), file).toBe(true);
    expect(packed('electron-builder.config.ts')).toBe(false);
    expect(packed('main/index.ts')).toBe(false);
  });

  it.skipIf(!existsSync(join(PROJECT_ROOT, pkg.main)))('finds those entry points in the build', () => {
    for (const file of [pkg.main, 'out/preload/index.cjs', 'out/renderer/index.html'])
      expect(existsSync(join(PROJECT_ROOT, file)), file).toBe(true);
  });

  it('flips the fuses that keep code from being injected into the packaged app', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(config.asar).not.toBe(false);
  });

  it('packs and unpacks the Electron build of better-sqlite3 where the app looks for it', () => {
    expect(packed(ELECTRON_BINDING)).toBe(true);
    expect(config.asarUnpack).toEqual([ELECTRON_BINDING]);
    const appPath = mkdtempSync(join(tmpdir(), 'cqc-app-'));
    try {
      expect(electronNativeBinding(appPath)).toBeUndefined();
      mkdirSync(dirname(join(appPath, ELECTRON_BINDING)), { recursive: true });
      writeFileSync(join(appPath, ELECTRON_BINDING), '');
      expect(electronNativeBinding(appPath)).toBe(join(appPath, ELECTRON_BINDING));
    } finally {
      rmSync(appPath, { recursive: true, force: true });
    }
  });

  it('has its icon: a 512×512 PNG rendered from build/icon.svg', () => {
    expect(config.icon).toBe('build/icon.png');
    expect(existsSync(join(PROJECT_ROOT, 'build/icon.svg'))).toBe(true);
    const png = readFileSync(join(PROJECT_ROOT, config.icon!));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([512, 512]);
  });
});

describe('the packager refuses to pack without the Electron build of better-sqlite3 for the target', () => {
  const projects: string[] = [];
  afterEach(() => projects.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  /** A project folder with Electron 42.0.0 and, if given, a stage built for `stamp`. */
  function project(stamp?: object): string {
    const dir = mkdtempSync(join(tmpdir(), 'cqc-pack-'));
    projects.push(dir);
    writeFileSync(join(dir, 'package.json'), '{}');
    mkdirSync(join(dir, 'node_modules/electron'), { recursive: true });
    writeFileSync(
      join(dir, 'node_modules/electron/package.json'),
      JSON.stringify({ name: 'electron', version: '42.0.0' }),
    );
    if (stamp) {
      mkdirSync(dirname(join(dir, ELECTRON_BINDING)), { recursive: true });
      writeFileSync(join(dir, ELECTRON_BINDING), '');
      writeFileSync(
        join(dir, '.electron-native/stamp.json'),
        JSON.stringify({ electron: '42.0.0', betterSqlite3: '12.0.0', ...stamp }),
      );
    }
    return dir;
  }
  const linuxX64 = { electronPlatformName: 'linux', arch: 1 };

  it('takes a build for this Electron, OS and arch', () => {
    expect(() => checkElectronBinding(project({ platform: 'linux', arch: 'x64' }), linuxX64)).not.toThrow();
    expect(() =>
      checkElectronBinding(project({ platform: 'darwin', arch: 'arm64' }), { electronPlatformName: 'darwin', arch: 3 }),
    ).not.toThrow();
  });

  it('refuses none, another arch, another OS or another Electron, saying what to run', () => {
    expect(() => checkElectronBinding(project(), linuxX64)).toThrow(
      /no Electron build of better-sqlite3 .*node scripts\/electron-native\.mjs/,
    );
    expect(() => checkElectronBinding(project({ platform: 'linux', arch: 'arm64' }), linuxX64)).toThrow(
      /"arch":"arm64".*"arch":"x64"/,
    );
    expect(() => checkElectronBinding(project({ platform: 'win32', arch: 'x64' }), linuxX64)).toThrow(
      /is for .*"win32"/,
    );
    expect(() =>
      checkElectronBinding(project({ platform: 'linux', arch: 'x64', electron: '41.0.0' }), linuxX64),
    ).toThrow(/"electron":"41\.0\.0"/);
  });
});

/** A suite of Playwright's JSON report, as far as read here. */
interface ReportSuite {
  file: string;
  specs: { tests: { status: string; annotations: { type: string; description?: string }[] }[] }[];
  suites?: ReportSuite[];
}

function reportedTests(suite: ReportSuite): { file: string; status: string; skip?: string }[] {
  return [
    ...suite.specs.flatMap((spec) =>
      spec.tests.map((test) => ({
        file: suite.file,
        status: test.status,
        skip: test.annotations.find((a) => a.type === 'skip')?.description,
      })),
    ),
    ...(suite.suites ?? []).flatMap(reportedTests),
  ];
}

// Where an Electron binary was downloaded the specs run for real (on the hosted runners, right
// after the unit tests): this is about what they say where they cannot.
const electronPresent = existsSync(join(PROJECT_ROOT, 'node_modules/electron/path.txt'));

describe.skipIf(electronPresent)('the Electron specs on a machine without Electron', () => {
  it('run as the workflow runs them, skip every test, and say they did not run and where they do', () => {
    const e2e = runs.find((run) => run.includes('npm run test:e2e'))!;
    const args = e2e.split(' -- ')[1]!.split(' ');
    expect(args).toEqual(['--project', 'electron']);
    expect(pkg.scripts['test:e2e']).toBe('playwright test');
    const report = join(mkdtempSync(join(tmpdir(), 'cqc-e2e-')), 'report.json');
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)));
    const run = spawnSync(
      process.execPath,
      [join(PROJECT_ROOT, 'node_modules/@playwright/test/cli.js'), 'test', ...args, '--reporter=list,json'],
      {
        cwd: PROJECT_ROOT,
        env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: report },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    try {
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^Electron specs NOT RUN: .*\(\.github\/workflows\/desktop\.yml\)/m);
      expect(run.stdout).toContain(WORKFLOW);

      const all = (JSON.parse(readFileSync(report, 'utf8')) as { suites: ReportSuite[] }).suites.flatMap(reportedTests);
      // The project the workflow names takes every Electron spec, and nothing else.
      const specs = readdirSync(join(PROJECT_ROOT, 'e2e/electron')).filter((file) => file.endsWith('.spec.ts'));
      expect(new Set(all.map((test) => test.file))).toEqual(new Set(specs.map((file) => `electron/${file}`)));
      for (const test of all) {
        expect(test.status).toBe('skipped');
        expect(test.skip).toContain(WORKFLOW);
      }
    } finally {
      rmSync(dirname(report), { recursive: true, force: true });
    }
  }, 90_000);
});
