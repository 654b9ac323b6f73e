import { describe, expect, it } from 'vitest';
import { parseServeArgs, UsageError } from './cli.js';

const env = { XDG_CONFIG_HOME: '/cfg' };

describe('serve command line (CONTRACT §1)', () => {
  it('defaults to 127.0.0.1:47100 and the OS app-data folder', () => {
    expect(parseServeArgs([], env)).toEqual({ host: '127.0.0.1', port: 47100, dataDir: expect.stringMatching(/cloud-queue-console$/), clockSpeed: undefined });
  });

  it('takes every option', () => {
    expect(parseServeArgs(['--host', '::1', '--port', '0', '--data-dir', '/tmp/d', '--clock-speed', '60'], env)).toEqual({
      host: '::1',
      port: 0,
      dataDir: '/tmp/d',
      clockSpeed: 60,
    });
    expect(parseServeArgs(['--ephemeral'], env).dataDir).toBeNull();
  });

  it.each([
    [['--port', 'abc']],
    [['--port', '70000']],
    [['--port', '-1']],
    [['--clock-speed', '-2']],
    [['--ephemeral', '--data-dir', '/x']],
    [['--what']],
    [['stray']],
  ])('refuses %j with a usage error', (argv) => {
    expect(() => parseServeArgs(argv, env)).toThrow(UsageError);
  });
});
