/**
 * The renderer's files as a browser gets them: types and cache header, 304 on a matching ETag or
 * date, ranges, HEAD; and nothing else from the folder or outside it, however the path is spelt.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFilePaths, registerStaticFiles } from './static-files.js';

const root = mkdtempSync(join(tmpdir(), 'cqc-static-'));
const build = join(root, 'renderer');
const SCRIPT = 'console.log("the console");\n';
let app: FastifyInstance;

beforeAll(async () => {
  mkdirSync(join(build, 'assets', 'fonts'), { recursive: true });
  mkdirSync(join(build, '.cache'));
  writeFileSync(join(build, 'index.html'), '<!doctype html>');
  writeFileSync(join(build, 'theme-boot.js'), '1;');
  writeFileSync(join(build, 'assets', 'index-abc.js'), SCRIPT);
  writeFileSync(join(build, 'assets', 'index-abc.css'), 'body{}');
  writeFileSync(join(build, 'assets', 'fonts', 'gone.woff2'), 'x');
  writeFileSync(join(build, '.env'), 'TOKEN=secret');
  writeFileSync(join(build, '.cache', 'x.js'), '2;');
  writeFileSync(join(root, 'outside.js'), 'outside');
  app = Fastify();
  registerStaticFiles(app, build);
  await app.listen({ host: '127.0.0.1', port: 0 });
  rmSync(join(build, 'assets', 'fonts', 'gone.woff2'));
});
afterAll(async () => {
  await app.close();
  rmSync(root, { recursive: true, force: true });
});

/** A GET with the path sent as written: inject and fetch would resolve its dot segments first. */
function rawGet(path: string): Promise<{ statusCode: number; body: string }> {
  const { port } = app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ statusCode: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
}

describe('the renderer build on the console listener', () => {
  it('lists its files as URL paths, without the index, dotfiles, names the router would misread, or broken links', () => {
    writeFileSync(join(build, 'assets', 'fonts', 'gone.woff2'), 'x');
    const odd = ['a:b.js', 'wild*.js', '100%.js'].map((name) => join(build, 'assets', name));
    for (const file of odd) writeFileSync(file, '3;');
    symlinkSync(join(build, 'nowhere.js'), join(build, 'assets', 'dangling.js'));
    try {
      expect(buildFilePaths(build)).toEqual([
        '/assets/fonts/gone.woff2',
        '/assets/index-abc.css',
        '/assets/index-abc.js',
        '/theme-boot.js',
      ]);
    } finally {
      for (const file of [...odd, join(build, 'assets', 'fonts', 'gone.woff2'), join(build, 'assets', 'dangling.js')])
        rmSync(file);
    }
  });

  it('serves a file with its type, length, an hour of cache and validators', async () => {
    const reply = await app.inject({ url: '/assets/index-abc.js' });
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toBe(SCRIPT);
    expect(reply.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
    expect(reply.headers['content-length']).toBe(String(SCRIPT.length));
    expect(reply.headers['cache-control']).toBe('public, max-age=3600');
    expect(reply.headers.etag).toBeTruthy();
    expect(reply.headers['last-modified']).toBeTruthy();
    expect(reply.headers['accept-ranges']).toBe('bytes');
    expect((await app.inject({ url: '/assets/index-abc.css' })).headers['content-type']).toBe(
      'text/css; charset=utf-8',
    );
  });

  it('answers 304 to a matching ETag or date, and HEAD without a body', async () => {
    const first = await app.inject({ url: '/theme-boot.js' });
    const byTag = await app.inject({ url: '/theme-boot.js', headers: { 'if-none-match': first.headers.etag! } });
    expect(byTag.statusCode).toBe(304);
    expect(byTag.body).toBe('');
    const byDate = await app.inject({
      url: '/theme-boot.js',
      headers: { 'if-modified-since': first.headers['last-modified']! },
    });
    expect(byDate.statusCode).toBe(304);
    const head = await app.inject({ method: 'HEAD', url: '/theme-boot.js' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe('2');
    expect(head.body).toBe('');
  });

  it('answers a range with 206 and one past the end with 416', async () => {
    const part = await app.inject({ url: '/assets/index-abc.js', headers: { range: 'bytes=0-6' } });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('console');
    expect(part.headers['content-range']).toBe(`bytes 0-6/${SCRIPT.length}`);
    const past = await app.inject({ url: '/assets/index-abc.js', headers: { range: 'bytes=900-950' } });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${SCRIPT.length}`);
  });

  it('gives nothing else: dotfiles, paths out of the folder, odd spellings, a file gone since start', async () => {
    for (const url of [
      '/.env',
      '/.cache/x.js',
      '/index.html',
      '/assets/nope.js',
      '/assets/../theme-boot.js/../../outside.js',
      '/../outside.js',
      '/%2e%2e/outside.js',
      '/assets/%2e%2e/%2e%2e/outside.js',
      '/assets//index-abc.js',
      '/assets/./index-abc.js',
      '/ASSETS/index-abc.js',
      '/assets/index-abc.js%00',
      '/assets',
      '/assets/',
      '/assets/fonts/gone.woff2',
    ]) {
      const reply = await rawGet(url);
      expect(reply.statusCode, url).toBe(404);
      // Fastify's 404 names the route; no file's content is in it.
      expect(reply.body, url).not.toMatch(/TOKEN=|console\.log|^outside$|^2;$/);
    }
  });
});
