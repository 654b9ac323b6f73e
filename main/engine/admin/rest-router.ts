/**
 * The admin API's REST routes (a command's `http` in the table), found by a router of their own
 * that is built on the first REST call. Registered with fastify, their hundred routes cost the
 * start 3 MB of allocations and about 12 ms (docs/decisions/perf-start.md), for an API a script
 * may never call; the console's UI calls `POST /commands/<name>`. It is the router fastify uses
 * (find-my-way), with fastify's defaults, so a path matches here exactly as it matched there:
 * decoded parameters, no trailing slash, case-sensitive, parameters up to 100 characters.
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

/** A parameter longer than fastify takes (a 414, as fastify answered it). */
export const PARAM_TOO_LONG = 'param too long';

interface Store {
  name: CommandName;
  route: HttpRoute;
  bodyLimit: number;
}

type Router = FindMyWay.Instance<FindMyWay.HTTPVersion.V1>;

/** Every method a REST route of the table has: the methods the catch-all route takes. */
export const REST_METHODS: readonly HttpRoute['method'][] = [
  ...new Set(Object.values(commandSpecs).flatMap((spec) => ('http' in spec && spec.http ? [spec.http.method] : []))),
];

export class RestRouter {
  private router: Router | null = null;

  /** The call `method path` makes (HEAD as GET, as fastify exposed it), null when none. */
  find(method: string, path: string): RestCall | typeof PARAM_TOO_LONG | null {
    const found = this.built().find((method === 'HEAD' ? 'GET' : method) as FindMyWay.HTTPMethod, path);
    if (!found) return null;
    const store = found.store as Store | null;
    // find-my-way answers a too-long parameter with its own handler, and no store.
    if (!store) return PARAM_TOO_LONG;
    return { ...store, params: found.params as Record<string, string> };
  }

  private built(): Router {
    if (this.router) return this.router;
    const router = FindMyWay({ onMaxParamLength: () => undefined });
    for (const name of Object.keys(commandSpecs) as CommandName[]) {
      const spec = commandSpecs[name];
      const route = 'http' in spec ? spec.http : undefined;
      if (!route) continue;
      const store: Store = { name, route, bodyLimit: restBodyLimit(name, route) };
      router.on(route.method, route.path, () => undefined, store);
    }
    return (this.router = router);
  }
}
