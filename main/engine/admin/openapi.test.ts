/**
 * The admin API's description is generated from the command table and agrees with the routes the
 * console really serves: valid OpenAPI 3.1 (checked by a validator library), one operation per
 * command and no operation without one, each real route listed, served with the token.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandSpecs } from '../api/commands.js';
import type { OpenApiDocument } from '../api/openapi-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';
import { describeAdminApi } from './openapi.js';

const document = describeAdminApi('1.2.3');
const operations = Object.entries(document.paths).flatMap(([path, verbs]) =>
  Object.entries(verbs).map(([verb, operation]) => ({ path, verb, operation: operation! })),
);
/** Routes the admin API has beside the command table's own. */
const EXTRA = ['commands.call', 'events.stream'];

describe('the admin API description', () => {
  it('is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(JSON.parse(JSON.stringify(document)) as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.2.3');
  });

  it('has one operation for every command, and none that no command or fixed route serves', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !EXTRA.includes(id)).sort()).toEqual(Object.keys(commandSpecs).sort());
  });

  it('lists each command at its own REST route with its summary, or at POST /commands/<name>', () => {
    for (const [name, spec] of Object.entries(commandSpecs)) {
      const http = 'http' in spec ? spec.http : undefined;
      const path = http ? http.path.replace(/:(\w+)/g, '{$1}') : `/commands/${name}`;
      const verb = http ? http.method.toLowerCase() : 'post';
      const found = operations.find((o) => o.operation.operationId === name);
      expect(found, name).toMatchObject({ path, verb, operation: { summary: spec.summary } });
    }
  });

  it('puts path fields in the path, GET fields in the query, and the rest of a write in its JSON body', () => {
    const byId = (id: string) => operations.find((o) => o.operation.operationId === id)!.operation;
    const generate = byId('queues.items.generate');
    expect(generate.parameters?.map((p) => [p.name, p.in, p.required])).toEqual([['id', 'path', true]]);
    const body = generate.requestBody?.content['application/json']?.schema as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(Object.keys(body.properties).sort()).toEqual(['afterItemId', 'count']);
    expect(body.required).toEqual(['count']);
    const traffic = byId('traffic.list');
    expect(traffic.parameters?.every((p) => p.in === 'query')).toBe(true);
    expect(traffic.requestBody).toBeUndefined();
  });

  let engine: Engine;
  beforeAll(async () => {
    engine = await startTestEngine({ version: '9.9.9' });
  });
  afterAll(() => engine.close());

  it('is served at GET /admin/api/openapi.json with the token like every call, built at start', async () => {
    const { status, body } = await admin(engine, 'GET', '/openapi.json');
    expect(status).toBe(200);
    expect((body as OpenApiDocument).info.version).toBe('9.9.9');
    expect((body as OpenApiDocument).paths['/queues/{id}']).toBeDefined();
    const anonymous = await fetch(`${engine.urls.console}/admin/api/openapi.json`);
    expect(anonymous.status).toBe(401);
  });

  it('answers HEAD /events with the stream’s head, and ends it (it never ended: outsider)', async () => {
    const head = await fetch(`${engine.urls.console}/admin/api/events`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${engine.adminToken}` },
      signal: AbortSignal.timeout(2_000),
    });
    expect([head.status, head.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    expect(await head.text()).toBe('');
  });

  it('describes routes that answer: each GET without path fields is served as it says, in the shape it says', async () => {
    const gets = operations.filter(
      ({ verb, path, operation }) =>
        verb === 'get' && !path.includes('{') && !(operation.parameters ?? []).some((p) => p.required),
    );
    expect(gets.length).toBeGreaterThan(10);
    for (const { path, operation } of gets.filter(({ path }) => path !== '/events')) {
      const { status, body } = await admin(engine, 'GET', path);
      expect([200, 404].includes(status) ? status : `${path}: ${status}`, path).toBe(200);
      // A list answers an array: a description that says object failed a generated client (outsider).
      const described = (operation.responses['200'] as { content: Record<string, { schema: { type?: string } }> })
        .content['application/json']!.schema;
      if (described.type !== undefined) expect(Array.isArray(body) ? 'array' : typeof body, path).toBe(described.type);
    }
  });
});
