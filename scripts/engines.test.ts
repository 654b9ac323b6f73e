/**
 * The Node line in package.json `engines` is one every installed package accepts: `npm ci` on
 * that line prints no EBADENGINE warning (a first `npm start` printed 35 lines of them when
 * Electron's install chain asked for Node 22 while the project said Node 20).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { minVersion, satisfies, validRange } from 'semver';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../main/testing/serve-process.js';

interface LockedPackage {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  engines?: { node?: string } | string[];
}

const read = <T>(file: string): T => JSON.parse(readFileSync(join(PROJECT_ROOT, file), 'utf8')) as T;
const manifest = read<{ engines: { node: string } }>('package.json');
const lock = read<{ packages: Record<string, LockedPackage> }>('package-lock.json');

/** Each locked package whose own `engines.node` leaves out the oldest Node of `line`, with why. */
function excludedBy(line: string, packages: Record<string, LockedPackage>): string[] {
  const oldest = minVersion(line)!.version;
  return Object.entries(packages).flatMap(([path, locked]) => {
    const wanted = Array.isArray(locked.engines) ? undefined : locked.engines?.node;
    if (path === '' || wanted === undefined || validRange(wanted) === null) return [];
    // npm warns when the running Node is outside the range: the line's oldest release (this
    // machine's and CI's Node 20) must be in it.
    return satisfies(oldest, wanted)
      ? []
      : [`${path.replace(/^node_modules\//, '')}@${locked.version} wants node ${wanted}`];
  });
}

describe('the Node line and the dependencies', () => {
  it('every package in package-lock.json accepts the Node line package.json gives', () => {
    expect(validRange(manifest.engines.node)).not.toBeNull();
    expect(excludedBy(manifest.engines.node, lock.packages)).toEqual([]);
  });

  it('names a package that asks for a newer Node than the line, and passes one that accepts it', () => {
    const packages: Record<string, LockedPackage> = {
      'node_modules/electron': { version: '42.11.18', dev: true, engines: { node: '>= 22.12.0' } },
      'node_modules/cookie': { version: '2.0.2', engines: { node: '>=22' } },
      'node_modules/glob': { version: '13.0.7', engines: { node: '18 || 20 || >=22' } },
      'node_modules/vite': { version: '8.3.8', engines: { node: '^20.19.0 || >=22.12.0' } },
    };
    expect(excludedBy('>=20.19', packages)).toEqual([
      'electron@42.11.18 wants node >= 22.12.0',
      'cookie@2.0.2 wants node >=22',
    ]);
    expect(excludedBy('>=22.12', packages)).toEqual([]);
  });
});
