/**
 * The admin API (docs/contract/console.md §7): the command table served over HTTP. Each command with an `http`
 * route gets that REST route; every command is also reachable as `POST /admin/api/commands/<name>`
 * (what the renderer's HTTP transport uses, mirroring the IPC bridge one to one).
 * Path parameters, query and body merge into the command's input; the command validates it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { commandSpecs, type CommandName } from '../api/commands.js';
import type { EventName } from '../api/events.js';
import { ENGINE_ERROR_STATUS, type EngineErrorBody } from '../api/errors.js';
import { loadValue } from '../api/lazy-typebox.js';
import type { CommandResult } from '../api/bridge.js';
import type { CommandRunner } from '../api/runner.js';
import type { EventStreams } from './sse.js';
import { BigBodies } from './big-bodies.js';
import { capStreamedBody, commandBodyLimit, LARGEST_COMMAND_BODY, refuseDeclaredOverLimit } from './body-limits.js';
import { checkAdminRequest } from './guard.js';
import { carriesBody, refuseBodyOfMissingPath } from '../http/service-app.js';
import { REST_METHODS, RestRouter, type RestCall, type RouterConfig } from './rest-router.js';
import { useJsonInTurns } from './json-in-turns.js';
import { answerInTurns } from './answer-in-turns.js';
import { LARGE_ANSWER_RETRY_AFTER_S, LargeAnswers, type EndTurn } from './large-answers.js';

export const ADMIN_PREFIX = '/admin/api';

/**
 * What fastify itself refuses about an admin call (a bad percent-escape, a path parameter too long:
 * 414, a malformed or oversized body), in the API's own error shape. The console listener answers
 * these for its admin paths (`buildConsoleApp`), before routing as after.
 */
export function adminRequestError(reply: FastifyReply, status: number, message: string): FastifyReply {
  const code = status === 404 ? 'not_found' : status === 503 ? 'unavailable' : 'invalid_input';
  return reply.code(status).send({ error: { code, message } satisfies EngineErrorBody });
}

export interface AdminRoutesOptions {
  commands: CommandRunner;
  streams: EventStreams;
  adminToken: string;
  consolePort: () => number;
}

export async function adminRoutes(app: FastifyInstance, options: AdminRoutesOptions): Promise<void> {
  const { commands, streams, adminToken, consolePort } = options;
  // Whole queues and bundles are tens of megabytes: parsed in turns, not in one (admin/json-in-turns.ts).
  useJsonInTurns(app);

  app.addHook('onRequest', async (request, reply) => {
    const verdict = checkAdminRequest(
      { host: request.headers.host, origin: request.headers.origin, authorization: request.headers.authorization },
      adminToken,
      consolePort,
    );
    if (!verdict.ok) {
      if (verdict.status === 401) reply.header('www-authenticate', 'Bearer realm="admin"');
      return reply
        .code(verdict.status)
        .send({ error: { code: verdict.status === 401 ? 'unauthorized' : 'forbidden', message: verdict.message } });
    }
  });

  // Calls the API does not have, after the same guard as every call.
  app.setNotFoundHandler((request, reply) => adminRequestError(reply, 404, noSuchCall(request)));

  const big = new BigBodies();
  const large = new LargeAnswers();
  const answer = async (reply: FastifyReply, name: unknown, input: unknown, status = 200) => {
    const spec = Object.hasOwn(commandSpecs, name as string) ? commandSpecs[name as CommandName] : undefined;
    if (!spec?.largeAnswer) return send(reply, await commands.call(name, input), status);
    const gone = new Promise<void>((resolve) => reply.raw.once('close', resolve));
    const turn = await large.turn(gone);
    if (turn instanceof Error) {
      reply.header('retry-after', String(LARGE_ANSWER_RETRY_AFTER_S));
      return adminRequestError(reply, 503, turn.message);
    }
    try {
      return send(reply, await commands.call(name, input), status, turn);
    } catch (error) {
      turn();
      throw error;
    }
  };

  app.post<{ Params: { name: string } }>(
    COMMAND_PATH,
    {
      // The route's own limit is the largest command's; each command's is applied before reading.
      bodyLimit: LARGEST_COMMAND_BODY,
      onRequest: async (request, reply) => {
        const refused =
          refuseDeclaredOverLimit(request, reply, commandBodyLimit(request.params.name)) ?? big.admit(request, reply);
        if (refused) throw refused;
      },
      preParsing: async (request, reply, payload) =>
        capStreamedBody(reply, payload, commandBodyLimit(request.params.name)),
    },
    (request, reply) => answer(reply, request.params.name, request.body ?? {}),
  );

  // Every command's REST route, behind one catch-all: the router that tells them apart is built on
  // the first call (rest-router.ts). Static and parametric routes above win over it.
  const rest = new RestRouter(ADMIN_PREFIX, app.initialConfig as RouterConfig, [
    { method: 'POST', path: COMMAND_PATH },
  ]);
  const calls = new WeakMap<FastifyRequest, RestCall>();
  app.route({
    method: [...REST_METHODS],
    url: '/*',
    bodyLimit: LARGEST_COMMAND_BODY,
    onRequest: async (request, reply) => {
      const call = rest.find(request.method, request.url);
      if (call === null) {
        // Answered before its body is read, as fastify's not-found route does.
        if (carriesBody(request.raw)) throw refuseBodyOfMissingPath(request, reply);
        throw requestError(404, noSuchCall(request));
      }
      if ('tooLongPath' in call) throw requestError(414, `'${call.tooLongPath}' is exceeding the max param length`);
      if (readsBody(request)) {
        const refused = refuseDeclaredOverLimit(request, reply, call.bodyLimit) ?? big.admit(request, reply);
        if (refused) throw refused;
      }
      calls.set(request, call);
    },
    preParsing: async (request, reply, payload) =>
      readsBody(request) ? capStreamedBody(reply, payload, calls.get(request)!.bodyLimit) : payload,
    handler: async (request, reply) => {
      const { name, route, params } = calls.get(request)!;
      // Its fields merge with the path's and the query's: a list or a scalar has none (a list
      // was taken as {}, so POST /queues [{…}] made an empty queue and answered 200).
      // No body at all is fine however it came: absent, empty (fetch sends `body: ''` as
      // text/plain) or JSON null.
      const body = request.body;
      if (body !== undefined && body !== '' && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
        return adminRequestError(reply, 400, `${name}: the body must be a JSON object`);
      }
      const problem = queryProblem(name, { ...(request.query as object), ...params });
      if (problem) return adminRequestError(reply, 400, problem);
      return answer(reply, name, await inputOf(name, request, params), route.status);
    },
  });

  app.get<{ Querystring: { omit?: string | string[] } }>('/events', (request, reply) => {
    // A HEAD (fastify answers one for every GET) gets the stream's head alone: attached, it never
    // ended (outsider).
    if (request.method === 'HEAD') return reply.type('text/event-stream').send();
    // `omit=a,b` or `omit=a&omit=b`. A name no event has leaves nothing out (a newer UI's list
    // does not break an older engine), so the names are not checked.
    const omit = [request.query.omit ?? []]
      .flat()
      .flatMap((names) => names.split(','))
      .filter(Boolean) as EventName[];
    reply.hijack();
    streams.attach(reply.raw, omit);
  });
}

/**
 * Query and path values arrive as strings; the command's schema says what they should become.
 * TypeBox's `Value` loads on the first REST call (lazy-typebox.ts): start-up needs none of it.
 */
async function inputOf(name: CommandName, request: FastifyRequest, params: Record<string, string>): Promise<unknown> {
  const Value = await loadValue();
  const fromUrl = Value.Convert(commandSpecs[name].input, { ...(request.query as object), ...params }) as object;
  const body = typeof request.body === 'object' && request.body !== null ? request.body : {};
  return { ...fromUrl, ...body, ...(Value.Convert(commandSpecs[name].input, { ...params }) as object) };
}

/**
 * A command's result as its answer. With `turn` (a large answer's, large-answers.ts), the answer is
 * made before the turn ends, or, written in turns, ends it once written. A large answer is sent as
 * bytes: a string its connection has not taken stays in the JS heap, and the collector lets the
 * heap grow with what stays (verify: forty 8.4 MB answers read 3 s late took the console from 110
 * MB to 1.67 GB, 459 MB as bytes; read at once, 223 MB against 246-393).
 */
function send(reply: FastifyReply, result: CommandResult<CommandName>, status: number, turn?: EndTurn): FastifyReply {
  if (!result.ok) {
    turn?.();
    return reply.code(ENGINE_ERROR_STATUS[result.error.code]).send({ error: result.error });
  }
  // A long list (a million generated item ids) is written in turns, not in one.
  const inTurns = answerInTurns(result.value);
  if (inTurns) {
    if (turn) inTurns.once('close', turn);
    return reply.code(status).type('application/json; charset=utf-8').send(inTurns);
  }
  if (!turn) return reply.code(status).send(result.value ?? {});
  const text = Buffer.from(JSON.stringify(result.value ?? {}), 'utf8');
  turn();
  return reply.code(status).type('application/json; charset=utf-8').send(text);
}

/**
 * What a query or path field holds that its schema would take wrongly: a field given twice where
 * the command takes one value (`?limit=1&limit=2` was refused as "/limit must be integer", though
 * both were: outsider), or a number not written in decimals, which the schema's conversion read as
 * `0x10` = 16, `1e1` = 10 and `1.5` = 1 (verification).
 */
function queryProblem(name: CommandName, fields: Record<string, unknown>): string | null {
  const properties = (commandSpecs[name].input as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  for (const [field, value] of Object.entries(fields)) {
    const type = properties[field]?.type;
    if (Array.isArray(value) && type !== 'array')
      return `${field} is given ${value.length} times in the query (${value.map((v) => JSON.stringify(v)).join(', ')}): give it once`;
    if (typeof value !== 'string') continue;
    if (type === 'integer' && !/^-?\d+$/.test(value))
      return `${field} must be a whole number written in decimals, got ${JSON.stringify(value)}`;
    if (type === 'number' && !/^-?\d+(\.\d+)?$/.test(value))
      return `${field} must be a number written in decimals, got ${JSON.stringify(value)}`;
  }
  return null;
}

/** `POST /commands/<name>`: every command, the whole input in the body (the console UI's calls). */
const COMMAND_PATH = '/commands/:name';

const noSuchCall = (request: FastifyRequest) => `the admin API has no ${request.method} ${request.url.split('?')[0]}`;

/** fastify reads no body of a GET or a HEAD: there is none to limit. */
const readsBody = (request: FastifyRequest) => request.method !== 'GET' && request.method !== 'HEAD';

/** Answered in the API's error shape by the console's error handler (`adminRequestError`). */
function requestError(statusCode: number, message: string): Error {
  return Object.assign(new Error(message), { statusCode });
}
