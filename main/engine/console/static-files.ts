/**
 * The renderer build's files (its scripts, styles, source maps) for browsers, answered by
 * `@fastify/send`: content types, `cache-control: public, max-age=3600`, ETag and Last-Modified
 * with 304, ranges with 206 and 416, HEAD.
 *
 * Each file the build held at start is one exact route, so a request's path never reaches the file
 * system: nothing outside the folder and no dotfile can be asked for, and anything else is the
 * app's 404. The build is fixed for a run (index.html is read once too). `@fastify/send` loads on
 * the first file asked for, not on the way to the ready line, which `@fastify/static` with its
 * `glob` slowed by about 7% of start CPU and 1.5 MB (docs/decisions/perf-start.md).
 */
import { readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import type Send from '@fastify/send';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * A name the router matches as written: no `:` or `*` (its parameters and wildcards) and nothing a
 * browser sends percent-encoded that the router keeps so. A build's hashed names always pass.
 */
const ROUTABLE_SEGMENT = /^[\w.~!$'()-]+$/;

/** The build's files as URL paths (`/assets/index-….js`), dotfiles, the index and odd names left out. */
export function buildFilePaths(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((relative) => statSync(join(dir, relative), { throwIfNoEntry: false })?.isFile() === true)
    .map((relative) => relative.split(sep))
    .filter((segments) => segments.every((segment) => !segment.startsWith('.') && ROUTABLE_SEGMENT.test(segment)))
    .map((segments) => `/${segments.join('/')}`)
    .filter((path) => path !== '/index.html')
    .sort();
}

export function registerStaticFiles(app: FastifyInstance, dir: string): void {
  let loading: Promise<typeof Send> | undefined;
  const sendFile = async (request: FastifyRequest, reply: FastifyReply, path: string) => {
    const send = await (loading ??= import('@fastify/send').then((module) => module.default));
    // The path is ours, never the request's; send encodes nothing, so it goes as a URL path.
    const result = await send(request.raw, encodeURI(path), {
      root: dir,
      index: false,
      dotfiles: 'deny',
      maxAge: '1h',
      cacheControl: true,
    });
    // A file gone since start is the app's 404, like any path the build never had.
    if (result.type === 'error' && result.statusCode === 404) return reply.callNotFound();
    return reply.code(result.statusCode).headers(result.headers).send(result.stream);
  };
  for (const path of buildFilePaths(dir)) app.get(path, (request, reply) => sendFile(request, reply, path));
}
