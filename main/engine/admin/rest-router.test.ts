/**
 * The REST routes' own router finds every command of the table by its path, as fastify found them
 * when each was a route of its own: parameters decoded, HEAD as GET, the query and an absolute-form
 * URL taken as fastify takes them, nothing for a path or method the table does not have, a
 * parameter past fastify's 100 characters told apart (a 414), and the app's router options kept.
 */
import { describe, expect, it } from 'vitest';
import { commandSpecs, type CommandName } from '../api/commands.js';
import { restBodyLimit } from './body-limits.js';
import { REST_METHODS, RestRouter } from './rest-router.js';

const PREFIX = '/admin/api';
/** fastify's defaults, as `initialConfig` says them. */
const DEFAULTS = { caseSensitive: true, routerOptions: { maxParamLength: 100 } };

const rest = (Object.keys(commandSpecs) as CommandName[]).flatMap((name) => {
  const spec = commandSpecs[name];
  return 'http' in spec && spec.http ? [{ name, route: spec.http }] : [];
});

describe('the admin API’s REST router', () => {
  it('finds every command of the table by its own method and path, with its body limit', () => {
    const router = new RestRouter(PREFIX, DEFAULTS);
    expect(rest.length).toBeGreaterThan(50);
    for (const { name, route } of rest) {
      const path = route.path.replace(/:([A-Za-z]+)/g, (_, field: string) => `some-${field}`);
      const call = router.find(route.method, PREFIX + path);
      expect(call, `${route.method} ${path}`).toMatchObject({ name, route, bodyLimit: restBodyLimit(name, route) });
      const fields = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]!);
      expect(call && 'params' in call ? call.params : null).toEqual(
        Object.fromEntries(fields.map((field) => [field, `some-${field}`])),
      );
    }
    expect(new Set(REST_METHODS)).toEqual(new Set(rest.map(({ route }) => route.method)));
  });

  it('decodes parameters, answers HEAD as GET, and finds nothing the table does not have', () => {
    const router = new RestRouter(PREFIX, DEFAULTS);
    const get = { name: 'queues.get', params: { id: 'q1' } };
    expect(router.find('GET', `${PREFIX}/queues/a%20b`)).toMatchObject({ name: 'queues.get', params: { id: 'a b' } });
    expect(router.find('HEAD', `${PREFIX}/queues/q1`)).toMatchObject(get);
    expect(router.find('GET', `${PREFIX}/queues/q1?limit=3`)).toMatchObject(get);
    expect(router.find('GET', `http://127.0.0.1:1/admin/api/queues/q1`)).toMatchObject(get);
    expect(router.find('GET', `/admin/%61pi/queues/q1`)).toMatchObject(get);
    expect(router.find('GET', `${PREFIX}/queues/q1/`)).toBeNull();
    expect(router.find('GET', `${PREFIX}/Queues/q1`)).toBeNull();
    expect(router.find('GET', `${PREFIX}//queues/q1`)).toBeNull();
    expect(router.find('PATCH', `${PREFIX}/clock/nothing`)).toBeNull();
    expect(router.find('GET', `${PREFIX}/nothing-here`)).toBeNull();
    expect(router.find('GET', '/queues/q1')).toBeNull();
  });

  it('tells a parameter longer than 100 characters apart from a path it does not have', () => {
    const router = new RestRouter(PREFIX, DEFAULTS, [{ method: 'POST', path: '/commands/:name' }]);
    expect(router.find('GET', `${PREFIX}/queues/${'q'.repeat(100)}`)).toMatchObject({ name: 'queues.get' });
    const long = `${PREFIX}/queues/${'q'.repeat(101)}`;
    expect(router.find('GET', `${long}?x=1`)).toEqual({ tooLongPath: long });
    // The app's own `POST /commands/:name` too: fastify goes on to the catch-all when it is too long.
    const command = `${PREFIX}/commands/${'c'.repeat(101)}`;
    expect(router.find('POST', command)).toEqual({ tooLongPath: command });
    expect(router.find('POST', `${PREFIX}/commands/clock.get`)).toBeNull();
  });

  it('takes the app’s router options', () => {
    const router = new RestRouter(PREFIX, {
      caseSensitive: false,
      routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 10 },
    });
    const get = { name: 'queues.get', params: { id: 'q1' } };
    expect(router.find('GET', `${PREFIX}/queues/q1/`)).toMatchObject(get);
    expect(router.find('GET', `${PREFIX}//queues/q1`)).toMatchObject(get);
    expect(router.find('GET', `${PREFIX}/Queues/q1`)).toMatchObject(get);
    expect(router.find('GET', `${PREFIX}/queues/${'q'.repeat(11)}`)).toEqual({
      tooLongPath: `${PREFIX}/queues/${'q'.repeat(11)}`,
    });
  });
});
