/**
 * The admin API's REST routes (a command's `http` in the table), found by a router of their own
 * that is built on the first REST call. Registered with fastify, their hundred routes cost the
 * start 2.8 MB of allocations (docs/decisions/perf-start.md), for an API a script may never call;
 * the console's UI calls `POST /commands/<name>`. It is the router fastify uses (find-my-way), with
 * the options of the app it serves (`initialConfig`), and it is given the request's URL as fastify
 * was: an absolute-form URL, percent-escapes, the query and a path parameter's length are taken
 * exactly as fastify's router took them.
 */
import FindMyWay from 'find-my-way';
import type { HttpRoute } from '../api/command.js';
import { commandSpecs, type CommandName } from '../api/commands.js';
import { restBodyLimit } from './body-limits.js';

/** The command a REST call names, with its route, its path's parameters and the body it may send. */
export interface RestCall {
  name: CommandName;
  route: HttpRoute;
  params: Record<string, string>;
  bodyLimit: number;
}

/** A path parameter longer than the app takes: fastify answered 414, naming the path. */
export interface ParamTooLong {
  tooLongPath: string;
}

/** What of fastify's options its router reads (`FastifyInstance.initialConfig`). */
export interface RouterConfig {
  caseSensitive?: boolean;
  routerOptions?: {
    ignoreTrailingSlash?: boolean;
    ignoreDuplicateSlashes?: boolean;
    maxParamLength?: number;
    useSemicolonDelimiter?: boolean;
  };
}

type Router = FindMyWay.Instance<FindMyWay.HTTPVersion.V1>;
type Store = Omit<RestCall, 'params'> | typeof OWN_ROUTE;

/** A route the admin app serves itself (`POST /commands/:name`): see `RestRouter`'s `own`. */
const OWN_ROUTE = 'own route';

/** Every command of the table that has a REST route, with it. */
export const REST_ROUTES: readonly { name: CommandName; route: HttpRoute }[] = (
  Object.keys(commandSpecs) as CommandName[]
).flatMap((name) => {
  const spec = commandSpecs[name];
  return 'http' in spec && spec.http ? [{ name, route: spec.http }] : [];
});

/** Every method a REST route of the table has: the methods the catch-all route takes. */
export const REST_METHODS: readonly HttpRoute['method'][] = [...new Set(REST_ROUTES.map(({ route }) => route.method))];

export class RestRouter {
  private router: Router | null = null;

  /**
   * `prefix`: where the admin API is mounted; `config`: the app's (`app.initialConfig`); `own`:
   * the app's own parametric routes, known here only so that a parameter too long for them is told
   * apart (fastify, finding it too long there, goes on to the catch-all).
   */
  constructor(
    private readonly prefix: string,
    private readonly config: RouterConfig,
    private readonly own: readonly { method: HttpRoute['method']; path: string }[] = [],
  ) {}

  /** The call `method url` makes (HEAD as GET, as fastify exposes it), null when none. */
  find(method: string, url: string): RestCall | ParamTooLong | null {
    const found = this.built().find((method === 'HEAD' ? 'GET' : method) as FindMyWay.HTTPMethod, url);
    if (!found) return null;
    const store = found.store as Store | null;
    // A parameter too long: find-my-way answers with a handler of its own that hands back the path.
    if (store === null) return { tooLongPath: (found.handler as () => string)() };
    if (store === OWN_ROUTE) return null;
    return { ...store, params: found.params as Record<string, string> };
  }

  private built(): Router {
    if (this.router) return this.router;
    const { caseSensitive, routerOptions = {} } = this.config;
    const router = FindMyWay({
      caseSensitive,
      ignoreTrailingSlash: routerOptions.ignoreTrailingSlash,
      ignoreDuplicateSlashes: routerOptions.ignoreDuplicateSlashes,
      maxParamLength: routerOptions.maxParamLength,
      useSemicolonDelimiter: routerOptions.useSemicolonDelimiter,
      onMaxParamLength: (path: string) => path,
    } as FindMyWay.Config<FindMyWay.HTTPVersion.V1>);
    const noop = () => undefined;
    for (const { name, route } of REST_ROUTES)
      router.on(route.method, this.prefix + route.path, noop, { name, route, bodyLimit: restBodyLimit(name, route) });
    for (const own of this.own) router.on(own.method, this.prefix + own.path, noop, OWN_ROUTE);
    return (this.router = router);
  }
}
