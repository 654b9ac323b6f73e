/** Which base URLs real players would not reach: loopback, private, link-local; public names and addresses pass. */
import { describe, expect, it } from 'vitest';
import { unreachableHost } from './reachable.js';

describe('unreachableHost', () => {
  it.each([
    'localhost',
    'api.localhost',
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.20',
    '169.254.1.1',
    '[::1]',
    '[fd12:3456::1]',
    '[fc00::1]',
    '[fe80::1]',
    '[::ffff:127.0.0.1]',
    '[::ffff:c0a8:0101]',
    '0.0.0.0',
  ])("%s is out of real players' reach", (host) => {
    expect(unreachableHost(host)).toMatch(/this machine|loopback or private/);
  });

  it.each([
    'queue.example.com',
    '8.8.8.8',
    '172.32.0.1',
    '172.15.255.255',
    '192.169.0.1',
    '11.0.0.1',
    '[2001:db8::1]',
    '[::ffff:8.8.8.8]',
  ])('%s is not', (host) => {
    expect(unreachableHost(host)).toBeNull();
  });
});
