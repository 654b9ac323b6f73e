/**
 * The console's router. The desktop app loads the renderer from a file, where only the hash can
 * change without a reload, so every address lives after the `#` (`index.html#/traffic?entry=12`),
 * in the desktop app and in a browser alike: links made by the engine, the e2e specs and people
 * are the same everywhere.
 */
import { createHashHistory, createRouter, type RouterHistory } from '@tanstack/react-router';
import { parseQuery, stringifyQuery } from './query-string';
import { routeTree } from './routes';

export function createAppRouter(history: RouterHistory = createHashHistory()) {
  return createRouter({
    routeTree,
    history,
    parseSearch: parseQuery,
    stringifySearch: stringifyQuery,
    // Nothing loads per route (the pages read through TanStack Query), so nothing to preload.
    defaultPreload: false,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
