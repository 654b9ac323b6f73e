import { describe, expect, it } from 'vitest';
import { consoleUrlMatcher, mayNavigate, permissionGranted } from './navigation-policy.js';

const PAGE = 'cqc://console/index.html';

describe('the console page, with a dev server (docs/contract/console.md §9)', () => {
  const isConsole = consoleUrlMatcher({ devServerUrl: 'http://localhost:5173', pageUrl: PAGE });

  it.each([
    'http://localhost:5173.evil.com/',
    'http://localhost:51734/',
    'http://localhost:5173@evil.com/',
    'https://localhost:5173/',
    'http://127.0.0.1:5173/',
    'http://user:pass@localhost:5173/',
    'javascript:alert(1)//http://localhost:5173',
    'not a url',
  ])('refuses %s, which a prefix match let through or nearly', (url) => {
    expect(isConsole(url)).toBe(false);
  });

  it.each([
    'http://localhost:5173',
    'http://localhost:5173/',
    'http://localhost:5173/index.html#/oauth',
    'http://LOCALHOST:5173/src/main.tsx?t=1',
  ])('takes %s', (url) => {
    expect(isConsole(url)).toBe(true);
  });

  it('keeps to the path the dev server was given', () => {
    const underApp = consoleUrlMatcher({ devServerUrl: 'http://localhost:5173/app', pageUrl: PAGE });
    expect(underApp('http://localhost:5173/app')).toBe(true);
    expect(underApp('http://localhost:5173/app/index.html')).toBe(true);
    expect(underApp('http://localhost:5173/application')).toBe(false);
    expect(underApp('http://localhost:5173/')).toBe(false);
  });

  it('trusts nothing when the dev server URL is not an http(s) URL', () => {
    const broken = consoleUrlMatcher({ devServerUrl: 'localhost:5173', pageUrl: PAGE });
    expect(broken('localhost:5173')).toBe(false);
    expect(broken('http://localhost:5173/')).toBe(false);
  });
});

describe('the console page, built', () => {
  const isConsole = consoleUrlMatcher({ pageUrl: PAGE });

  it('is the built index.html exactly, with any fragment', () => {
    expect(isConsole(PAGE)).toBe(true);
    expect(isConsole(`${PAGE}#/traffic`)).toBe(true);
    expect(isConsole(`${PAGE}?x=1`)).toBe(false);
    expect(isConsole('cqc://console/other.html')).toBe(false);
    expect(isConsole('cqc://console/index.html.evil')).toBe(false);
    expect(isConsole('cqc://evil/index.html')).toBe(false);
    expect(isConsole('cqc://user@console/index.html')).toBe(false);
    // The built file itself, loaded as a file, is not the console: a file: page could read any file.
    expect(isConsole('file:///opt/cqc/out/renderer/index.html')).toBe(false);
    expect(isConsole('http://localhost/opt/cqc/out/renderer/index.html')).toBe(false);
  });
});

describe('navigations, redirects and frame navigations', () => {
  const isConsoleUrl = consoleUrlMatcher({ devServerUrl: 'http://localhost:5173', pageUrl: PAGE });

  it('keep the console window on the console', () => {
    expect(mayNavigate('http://localhost:5173/#/oauth', { isConsoleUrl, inOAuthWindow: false })).toBe(true);
    expect(mayNavigate('http://localhost:5173.evil.com/', { isConsoleUrl, inOAuthWindow: false })).toBe(false);
    expect(mayNavigate('https://evil.example/', { isConsoleUrl, inOAuthWindow: false })).toBe(false);
  });

  it('let an OAuth window walk the login pages and the redirect', () => {
    expect(
      mayNavigate('http://127.0.0.1:47101/login/v3/oauth?client_id=x', { isConsoleUrl, inOAuthWindow: true }),
    ).toBe(true);
  });
});

describe('permissions', () => {
  const isConsoleUrl = consoleUrlMatcher({ pageUrl: PAGE });

  it('grants the console page the clipboard write of its copy buttons, and nothing else', () => {
    expect(
      permissionGranted('clipboard-sanitized-write', { requestingUrl: PAGE, isConsoleUrl, inOAuthWindow: false }),
    ).toBe(true);
    for (const permission of [
      'clipboard-read',
      'media',
      'geolocation',
      'notifications',
      'openExternal',
      'fileSystem',
      'hid',
      'usb',
      'serial',
      'unknown',
    ]) {
      expect(
        permissionGranted(permission, { requestingUrl: PAGE, isConsoleUrl, inOAuthWindow: false }),
        permission,
      ).toBe(false);
    }
  });

  it('refuses even the clipboard to any other page, to an OAuth window, and to an unknown requester', () => {
    expect(
      permissionGranted('clipboard-sanitized-write', {
        requestingUrl: 'https://evil.example/',
        isConsoleUrl,
        inOAuthWindow: false,
      }),
    ).toBe(false);
    expect(
      permissionGranted('clipboard-sanitized-write', { requestingUrl: PAGE, isConsoleUrl, inOAuthWindow: true }),
    ).toBe(false);
    expect(
      permissionGranted('clipboard-sanitized-write', { requestingUrl: undefined, isConsoleUrl, inOAuthWindow: false }),
    ).toBe(false);
  });
});
