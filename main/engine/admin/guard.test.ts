import { describe, expect, it } from 'vitest';
import { hostnameOfHostHeader, isLoopbackHostname } from '../http/loopback.js';
import { checkAdminRequest } from './guard.js';

const port = () => 47100;
const ok = { host: '127.0.0.1:47100', origin: undefined, authorization: 'Bearer secret' };

describe('admin guard (docs/contract/console.md §7)', () => {
  it('lets a loopback request with the token through', () => {
    expect(checkAdminRequest(ok, 'secret', port)).toEqual({ ok: true });
    expect(checkAdminRequest({ ...ok, host: 'localhost:47100' }, 'secret', port)).toEqual({ ok: true });
    expect(checkAdminRequest({ ...ok, host: '[::1]:47100' }, 'secret', port)).toEqual({ ok: true });
  });

  it('answers 401 without the right token', () => {
    expect(checkAdminRequest({ ...ok, authorization: undefined }, 'secret', port)).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(checkAdminRequest({ ...ok, authorization: 'Bearer nope' }, 'secret', port)).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(checkAdminRequest({ ...ok, authorization: 'Basic secret' }, 'secret', port)).toMatchObject({
      ok: false,
      status: 401,
    });
  });

  it('answers 403 to a foreign Host (DNS rebinding), even with the token', () => {
    expect(checkAdminRequest({ ...ok, host: 'evil.example:47100' }, 'secret', port)).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(checkAdminRequest({ ...ok, host: '192.168.1.5:47100' }, 'secret', port)).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(checkAdminRequest({ ...ok, host: undefined }, 'secret', port)).toMatchObject({ ok: false, status: 403 });
  });

  it('answers 403 to a cross-site Origin', () => {
    expect(checkAdminRequest({ ...ok, origin: 'https://evil.example' }, 'secret', port)).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(checkAdminRequest({ ...ok, origin: 'http://localhost:3000' }, 'secret', port)).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(checkAdminRequest({ ...ok, origin: 'null' }, 'secret', port)).toMatchObject({ ok: false, status: 403 });
    expect(checkAdminRequest({ ...ok, origin: 'http://127.0.0.1:47100' }, 'secret', port)).toEqual({ ok: true });
  });
});

describe('loopback names', () => {
  it.each([
    ['localhost', true],
    ['console.localhost', true],
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['[::1]', true],
    ['example.com', false],
    ['10.0.0.1', false],
    ['::2', false],
    ['localhost.evil.example', false],
  ])('%s → %s', (name, loopback) => expect(isLoopbackHostname(name)).toBe(loopback));

  it.each([
    ['127.0.0.1:80', '127.0.0.1'],
    ['[::1]:47100', '::1'],
    ['localhost', 'localhost'],
    ['::1', '::1'],
  ])('Host %s has hostname %s', (host, hostname) => expect(hostnameOfHostHeader(host)).toBe(hostname));
});
