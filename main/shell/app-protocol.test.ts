import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appFileOf, CONSOLE_PAGE_URL, contentTypeOf, rendererEntry } from './app-protocol.js';

const ROOT = '/opt/cqc/resources/app.asar/out/renderer';

describe('the console page scheme', () => {
  it('maps the console page and its assets into the renderer folder', () => {
    expect(appFileOf(CONSOLE_PAGE_URL, ROOT)).toBe(join(ROOT, 'index.html'));
    expect(appFileOf('cqc://console/', ROOT)).toBe(join(ROOT, 'index.html'));
    expect(appFileOf('cqc://console/assets/index-abc.js?v=1#x', ROOT)).toBe(join(ROOT, 'assets/index-abc.js'));
  });

  it.each([
    'cqc://console/../../../etc/passwd',
    'cqc://console/%2e%2e/%2e%2e/etc/passwd',
    'cqc://console/assets/../../../x',
  ])('keeps %s inside the folder (the URL resolves its dot segments first)', (url) => {
    const file = appFileOf(url, ROOT);
    expect(file === null || file.startsWith(`${ROOT}/`)).toBe(true);
  });

  it.each([
    'cqc://console/assets/..%2f..%2fsecret',
    'cqc://console/assets%5c..%5c..%5csecret',
    'cqc://console/a%00.js',
    'cqc://other/index.html',
    'file:///etc/passwd',
    'https://console/index.html',
    'cqc://console/%E0%A4%A',
    'not a url',
  ])('refuses %s', (url) => {
    expect(appFileOf(url, ROOT)).toBeNull();
  });

  it('gives a module script a JavaScript type, never a sniffed one', () => {
    expect(contentTypeOf('/x/assets/index.js')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('/x/index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeOf('/x/blob.bin')).toBe('application/octet-stream');
  });
});

describe('what only a development build honours', () => {
  it('a packaged app ignores ELECTRON_RENDERER_URL and has no DevTools', () => {
    expect(rendererEntry({ isPackaged: true, env: { ELECTRON_RENDERER_URL: 'http://evil.example/' } })).toEqual({
      devTools: false,
    });
  });

  it('an unpackaged app takes the dev server and keeps DevTools', () => {
    expect(rendererEntry({ isPackaged: false, env: { ELECTRON_RENDERER_URL: 'http://localhost:5173' } })).toEqual({
      devServerUrl: 'http://localhost:5173',
      devTools: true,
    });
    expect(rendererEntry({ isPackaged: false, env: {} })).toEqual({ devTools: true });
  });
});
