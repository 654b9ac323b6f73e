/**
 * How much body each admin route reads (docs/contract/console.md §9): what its command can use and
 * no more, taken from the command table, so that a body meant to tire the engine is refused by its
 * declared length, or cut as it streams, long before it is buffered and parsed.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Transform, type Readable } from 'node:stream';
import type { HttpRoute } from '../api/command.js';
import { commandSpecs, type CommandName } from '../api/commands.js';

/** Any command whose input a body carries and that sets no limit of its own. */
export const COMMAND_BODY_LIMIT = 1024 * 1024;
/** `{}` or `null`, which many clients send with every call: room for that and nothing more. */
export const BODILESS_LIMIT = 1024;

const specOf = (name: string) => (Object.hasOwn(commandSpecs, name) ? commandSpecs[name as CommandName] : undefined);

/** Through `POST /commands/<name>` the whole input is the body, path fields included. */
export function commandBodyLimit(name: string): number {
  const spec = specOf(name);
  if (!spec) return BODILESS_LIMIT;
  return spec.bodyLimit ?? COMMAND_BODY_LIMIT;
}

/** Through its REST route the body carries what the path does not: nothing, for some commands. */
export function restBodyLimit(name: CommandName, route: HttpRoute): number {
  const spec = commandSpecs[name];
  if (spec.bodyLimit !== undefined) return spec.bodyLimit;
  const pathFields = new Set([...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]));
  const properties = (spec.input as { properties?: Record<string, unknown> }).properties;
  // An input that is not an object schema (Unknown, a union) may need any body.
  if (!properties) return COMMAND_BODY_LIMIT;
  return Object.keys(properties).some((field) => !pathFields.has(field)) ? COMMAND_BODY_LIMIT : BODILESS_LIMIT;
}

/** The largest any command takes: the static limit of the `/commands/:name` route. */
export const LARGEST_COMMAND_BODY = Math.max(
  COMMAND_BODY_LIMIT,
  ...Object.values(commandSpecs).map((spec) => spec.bodyLimit ?? 0),
);

export class BodyTooLarge extends Error {
  readonly statusCode = 413;
  constructor(limit: number) {
    super(`the request body is larger than this call takes (${limit.toLocaleString('en-US')} bytes)`);
  }
}

/**
 * `onRequest` of a command's route: a declared length over the command's limit is refused before a
 * byte is read, and the connection closed so the rest of it is never read either.
 */
export function refuseDeclaredOverLimit(
  request: FastifyRequest,
  reply: FastifyReply,
  limit: number,
): Error | undefined {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) {
    reply.header('connection', 'close');
    return new BodyTooLarge(limit);
  }
  return undefined;
}

/** `preParsing` of a command's route: a chunked body is cut at the command's limit as it streams. */
export function capStreamedBody(reply: FastifyReply, payload: Readable, limit: number): Readable {
  let received = 0;
  const capped = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > limit) {
        reply.header('connection', 'close');
        done(new BodyTooLarge(limit));
        return;
      }
      done(null, chunk);
    },
  });
  payload.on('error', (error) => capped.destroy(error));
  return payload.pipe(capped);
}
