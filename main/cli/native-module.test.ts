/** better-sqlite3 without its native module is told with its remedy, not as the paths it was looked for at. */
import { describe, expect, it } from 'vitest';
import { nativeModuleProblem } from './native-module.js';

describe('nativeModuleProblem', () => {
  it('names the install script that did not run, and the remedy', () => {
    // As the `bindings` package says it (cut: it lists thirteen paths).
    const missing = new Error(
      'Could not locate the bindings file. Tried:\n → /app/node_modules/better-sqlite3/build/better_sqlite3.node\n → /app/node_modules/better-sqlite3/build/Release/better_sqlite3.node',
    );
    const said = nativeModuleProblem(missing)!;
    expect(said).toMatch(/^better-sqlite3, which keeps the console's data, has no native module built/);
    expect(said).toContain('npm rebuild better-sqlite3');
    expect(said).toContain('npm install-scripts approve better-sqlite3');
    expect(said).not.toContain('Tried');
  });

  it('tells a module built for another Node.js apart', () => {
    const abi = new Error(
      "The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 108. This version of Node.js requires\nNODE_MODULE_VERSION 115.",
    );
    expect(nativeModuleProblem(abi)).toMatch(/was built for another Node\.js version than this one \(v\d+/);
  });

  it('leaves every other error as it is', () => {
    expect(nativeModuleProblem(new Error('Could not locate the bindings file. Tried: → /x/other.node'))).toBeNull();
    expect(nativeModuleProblem(new Error('EADDRINUSE'))).toBeNull();
  });
});
