import { describe, expect, it } from 'vitest';
import { parseServeArgs } from './serve-args.js';
import { HelpRequested, UsageError } from './usage.js';

const env = { XDG_CONFIG_HOME: '/cfg' };

describe('serve command line (docs/contract/console.md §1)', () => {
  it('defaults to 127.0.0.1:47100 and the OS app-data folder', () => {
    expect(parseServeArgs([], env)).toEqual({
      host: '127.0.0.1',
      port: 47100,
      dataDir: expect.stringMatching(/cloud-queue-console$/),
      clockSpeed: undefined,
    });
  });

  it('takes every option', () => {
    expect(
      parseServeArgs(['--host', '::1', '--port', '0', '--data-dir', '/tmp/d', '--clock-speed', '60'], env),
    ).toEqual({
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
    [['--clock-speed', '1000000']],
    [['--host', '0.0.0.0']],
    [['--host', '192.168.1.20']],
    [['--host', 'example.com']],
    [['--ephemeral', '--data-dir', '/x']],
    [['--what']],
    [['stray']],
    // Empty is no 0 (an unset $SPEED stopped the clock, an unset $PORT took free ports: outsider), nor is hex 16.
    [['--clock-speed', '']],
    [['--port', '']],
    [['--port', '0x10']],
    [['--data-dir', '']],
  ])('refuses %j with a usage error', (argv) => {
    expect(() => parseServeArgs(argv, env)).toThrow(UsageError);
  });

  it('listens on any loopback name, and runs the clock up to the speed POST /clock allows', () => {
    for (const host of ['localhost', '::1', '127.0.0.2']) expect(parseServeArgs(['--host', host], env).host).toBe(host);
    // As a URL writes it: the address inside the brackets (getaddrinfo knows no "[::1]").
    expect(parseServeArgs(['--host', '[::1]'], env).host).toBe('::1');
    expect(parseServeArgs(['--clock-speed', '100000'], env).clockSpeed).toBe(100_000);
  });

  it('lists the options it takes after an unknown one', () => {
    expect(() => parseServeArgs(['--bogus'], env)).toThrow(
      /^unknown option --bogus: this command takes --host, --port, --data-dir, --ephemeral, --clock-speed$/,
    );
  });

  it('takes --help as a request for the usage, not an error', () => {
    expect(() => parseServeArgs(['--help'], env)).toThrow(HelpRequested);
    expect(() => parseServeArgs(['-h', '--port', 'nope'], env)).toThrow(HelpRequested);
  });
});
