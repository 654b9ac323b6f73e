/**
 * `login/endpoints/`: the login service's HTTP side. This file is its listener (port P+1) and
 * route table; `authorization-endpoint.ts` answers the authorization request (checked in
 * `authorize.ts`), the sign-in and consent pages (`pages.ts`, sign-ins in progress in
 * `interactions.ts`); `token-endpoint.ts` answers the token requests the grants decide.
 *
 * The routes are those of docs/contract/platform.md §4.1 and docs/contract/console.md §2. Forms
 * are read by our own parser so that repeated parameters stay visible; any body the endpoints cannot read becomes an OAuth
 * error (JSON at the token endpoint, an HTML page elsewhere), never a 500 and never a redirect.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createServiceApp } from '../../http/service-app.js';
import { InvalidRequest, ServerError } from '../oauth-error.js';
import { Params } from '../params.js';
import type { RedirectCapture } from '../console/redirect-capture.js';
import { AUTHORIZE_PATH, CAPTURED_PATH, CONSENT_PATH, SIGN_IN_PATH, TOKEN_PATH } from '../paths.js';
import type { AuthorizationEndpoint, PageAnswer } from './authorization-endpoint.js';
import { errorPage, pageHeaders } from './pages.js';
import { NO_STORE } from '../../http/no-store.js';
import type { TokenEndpoint, TokenAnswer } from './token-endpoint.js';

/** Forms larger than this are refused: no legitimate OAuth form comes close. */
export const FORM_LIMIT_BYTES = 16 * 1024;

export interface LoginAppOptions {
  authorization: AuthorizationEndpoint;
  token: TokenEndpoint;
  /** A 500/503 that failure injection wants this authorization request to answer (RFC 6749 §4.1.2.1). */
  injectedStatus?: (request: FastifyRequest) => number | null;
  /** The pages of captured redirects (login/console/redirect-capture.ts). */
  capture?: RedirectCapture;
}

/** A body the endpoints cannot read, and why. */
class Unreadable {
  constructor(readonly problem: string) {}
}

/**
 * A request the login service cannot answer: OAuth JSON at the token endpoint, a page elsewhere.
 * `missing`: a path it does not have, which came with a body: a 404 page, as without one (it was a
 * 400, and a GET of the same path a 404: outsider).
 */
function refuse(reply: FastifyReply, clientError: boolean, why: string, missing = false): FastifyReply {
  if (reply.request.url.split('?')[0] === TOKEN_PATH) {
    const answer: TokenAnswer = {
      status: clientError ? 400 : 500,
      headers: NO_STORE,
      body: (clientError ? new InvalidRequest(why) : new ServerError(why)).toBody(),
    };
    return send(reply, answer);
  }
  return send(reply, {
    status: missing ? 404 : clientError ? 400 : 500,
    headers: pageHeaders(),
    body: errorPage({ title: 'This request cannot be answered', message: why }),
  });
}

export async function buildLoginApp(options: LoginAppOptions): Promise<FastifyInstance> {
  const app = createServiceApp({
    requestErrors: (reply, status, message, part) =>
      refuse(
        reply,
        true,
        status === 413 ? `the form is larger than ${FORM_LIMIT_BYTES / 1024} KiB` : message,
        part === 'missing',
      ),
    serverError: (reply) => refuse(reply, false, 'the login service failed'),
    // Before a path is known: the page the browser shows for any other refusal.
    clientErrors: (_status, message) => ({
      type: 'text/html; charset=utf-8',
      body: errorPage({ title: 'This request cannot be answered', message }),
    }),
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES },
    (_request, body, done) => done(null, Params.parse(body as string)),
  );
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: FORM_LIMIT_BYTES }, (request, _body, done) =>
    done(
      null,
      new Unreadable(
        `the body must be application/x-www-form-urlencoded, not ${request.headers['content-type'] ?? 'untyped'}`,
      ),
    ),
  );

  const formOf = (request: FastifyRequest): Params | null => (request.body instanceof Params ? request.body : null);
  const cookieOf = (request: FastifyRequest): string | undefined => request.headers.cookie;

  // A page like the others, with their headers (no framing, no caching, no referrer).
  app.get('/', async (_request, reply) =>
    send(reply, {
      status: 200,
      headers: pageHeaders(),
      body: '<!doctype html><title>Login service</title><h1>Login service</h1><p>OAuth 2.0: <code>/login/v3/oauth</code></p>',
    }),
  );
  app.get(AUTHORIZE_PATH, { exposeHeadRoute: false }, async (request, reply) =>
    send(reply, options.authorization.authorize(request.url, options.injectedStatus?.(request) ?? null)),
  );
  app.post(SIGN_IN_PATH, async (request, reply) =>
    send(reply, await options.authorization.signIn(formOf(request), cookieOf(request))),
  );
  app.get(CONSENT_PATH, { exposeHeadRoute: false }, async (request, reply) =>
    send(reply, options.authorization.consent(Params.fromUrl(request.url), cookieOf(request))),
  );
  app.post(CONSENT_PATH, async (request, reply) =>
    send(reply, options.authorization.decide(formOf(request), cookieOf(request))),
  );
  const capture = options.capture;
  if (capture)
    app.get(CAPTURED_PATH, { exposeHeadRoute: false }, async (request, reply) =>
      send(reply, capture.page(Params.fromUrl(request.url).single('flow'))),
    );

  app.post(TOKEN_PATH, async (request, reply) => {
    const form =
      request.body instanceof Params
        ? request.body
        : { problem: request.body instanceof Unreadable ? request.body.problem : 'the body is empty: send the form' };
    return send(reply, await options.token.handle({ authorization: request.headers.authorization, form }));
  });
  app.route({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url: TOKEN_PATH,
    handler: async (request, reply) =>
      send(reply.header('allow', 'POST'), {
        status: 405,
        headers: NO_STORE,
        body: new InvalidRequest(`the token endpoint takes POST, not ${request.method}`).toBody(),
      }),
  });
  return app;
}

function send(reply: FastifyReply, answer: PageAnswer | TokenAnswer): FastifyReply {
  reply.code(answer.status).headers(answer.headers);
  if ('cookies' in answer && answer.cookies) reply.header('set-cookie', answer.cookies);
  return reply.send(answer.body ?? '');
}
