/**
 * The REST routes' own router finds every command of the table by its path, as fastify found them
 * when each was a route of its own: parameters decoded, HEAD as GET, nothing for a path or method
 * the table does not have, and a parameter past fastify's 100 characters told apart (a 414).
 */
import { describe, expect, it } from 'vitest';
import { commandSpecs, type CommandName } from '../api/commands.js';
import { restBodyLimit } from './body-limits.js';
import { PARAM_TOO_LONG, REST_METHODS, RestRouter } from './rest-router.js';

const rest = (Object.keys(commandSpecs) as CommandName[]).flatMap((name) => {
  const spec = commandSpecs[name];
  return 'http' in spec && spec.http ? [{ name, route: spec.http }] : [];
});

describe('the admin API’s REST router', () => {
  it('finds every command of the table by its own method and path, with its body limit', () => {
    const router = new RestRouter();
    expect(rest.length).toBeGreaterThan(50);
    for (const { name, route } of rest) {
      const path = route.path.replace(/:([A-Za-z]+)/g, (_, field: string) => `some-${field}`);
      const call = router.find(route.method, path);
      expect(call, `${route.method} ${path}`).toMatchObject({ name, route, bodyLimit: restBodyLimit(name, route) });
      const fields = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]!);
      expect(call === null || call === PARAM_TOO_LONG ? null : call.params).toEqual(
        Object.fromEntries(fields.map((field) => [field, `some-${field}`])),
      );
    }
    expect(new Set(REST_METHODS)).toEqual(new Set(rest.map(({ route }) => route.method)));
  });

  it('decodes parameters, answers HEAD as GET, and finds nothing the table does not have', () => {
    const router = new RestRouter();
    expect(router.find('GET', '/queues/a%20b')).toMatchObject({ name: 'queues.get', params: { id: 'a b' } });
    expect(router.find('HEAD', '/queues/q1')).toMatchObject({ name: 'queues.get', params: { id: 'q1' } });
    expect(router.find('GET', '/queues/q1/')).toBeNull();
    expect(router.find('GET', '/Queues/q1')).toBeNull();
    expect(router.find('PATCH', '/clock/nothing')).toBeNull();
    expect(router.find('GET', '/nothing-here')).toBeNull();
  });

  it('tells a parameter longer than 100 characters apart from a path it does not have', () => {
    const router = new RestRouter();
    expect(router.find('GET', `/queues/${'q'.repeat(100)}`)).toMatchObject({ name: 'queues.get' });
    expect(router.find('GET', `/queues/${'q'.repeat(101)}`)).toBe(PARAM_TOO_LONG);
  });
});
