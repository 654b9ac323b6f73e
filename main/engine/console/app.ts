/**
 * The console listener (docs/contract/console.md §1, port P): the admin API under /admin/api and the renderer for
 * browsers. Every route sits behind the Host and Origin guard.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ADMIN_PREFIX, adminRequestError, adminRoutes, type AdminRoutesOptions } from '../admin/routes.js';
import { checkHostAndOrigin } from '../admin/guard.js';
import { createServiceApp } from '../http/service-app.js';
import { consoleUiKeyOf } from '../traffic/console-ui.js';
import { NOT_BUILT_PAGE, type ConsoleAssets } from './assets.js';
import { CONSOLE_CSP_HEADER } from './csp.js';
import { registerStaticFiles } from './static-files.js';

export interface ConsoleAppOptions extends AdminRoutesOptions {
  assets: ConsoleAssets | null;
}

export async function buildConsoleApp(options: ConsoleAppOptions): Promise<FastifyInstance> {
  const isAdmin = (url: string) => url.startsWith(`${ADMIN_PREFIX}/`);
  const app = createServiceApp({
    // Each admin route sets what its command takes (admin/body-limits.ts); everything else, the default.
    requestErrors: (reply, status, message) =>
      isAdmin(reply.request.url)
        ? adminRequestError(reply, status, message)
        : reply.code(status).type('text/plain').send(message),
    // Before a path is known: the admin API's shape, which its clients parse (a page's request has no reader).
    clientErrors: (_status, message) => ({
      type: 'application/json; charset=utf-8',
      body: JSON.stringify({ error: { code: 'invalid_input', message } }),
    }),
  });

  app.addHook('onRequest', async (request, reply) => {
    // The admin API's own guard checks Host and Origin with the token, and answers in its shape.
    if (isAdmin(request.url)) return;
    const verdict = checkHostAndOrigin(
      { host: request.headers.host, origin: request.headers.origin },
      options.consolePort,
    );
    if (!verdict.ok) return reply.code(verdict.status).type('text/plain').send(verdict.message);
  });

  await app.register(adminRoutes, { ...options, prefix: ADMIN_PREFIX });

  const { assets } = options;
  // The page's key to keep its own calls out of the traffic log; a script has none (§9).
  const uiKey = consoleUiKeyOf(app);
  const sendIndex = (request: FastifyRequest, reply: FastifyReply) => {
    reply
      .header('content-security-policy', CONSOLE_CSP_HEADER)
      .header('cache-control', 'no-store')
      .header('set-cookie', uiKey.cookie(request))
      .type('text/html; charset=utf-8');
    return assets ? reply.send(assets.indexHtml) : reply.code(503).send(NOT_BUILT_PAGE);
  };
  app.get('/', sendIndex);
  app.get('/index.html', sendIndex);
  if (assets) registerStaticFiles(app, assets.dir);
  return app;
}
