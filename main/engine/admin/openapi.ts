/**
 * The admin API described as OpenAPI 3.1, generated from the command table (docs/contract/console.md
 * §7: never written by hand). Every command gets one operation: its REST route where it has one,
 * else `POST /commands/<name>`; its input schema (TypeBox, so JSON Schema 2020-12, which OpenAPI
 * 3.1 takes as it is) split into path, query and body the way `routes.ts` merges them back.
 */
import type { TSchema } from 'typebox';
import type { HttpRoute } from '../api/command.js';
import { commandSpecs, type CommandName } from '../api/commands.js';
import type { HttpVerb, OpenApiDocument, OpenApiOperation, OpenApiParameter } from '../api/openapi-types.js';
import { ADMIN_PREFIX } from './routes.js';

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: {
          enum: [
            'invalid_input',
            'unknown_command',
            'not_found',
            'conflict',
            'unavailable',
            'internal',
            'unauthorized',
            'forbidden',
          ],
        },
        message: { type: 'string' },
        details: { description: 'For invalid_input: every refused place as {path, message}.' },
      },
    },
  },
};

/** What each command area is, for the tags (the first word of a command's name). */
const AREAS: Record<string, string> = {
  state: 'The console at a glance.',
  clock: 'The engine clock every timer and lifetime runs on.',
  players: 'Simulated players: state, transitions, user actions.',
  control: 'Control API calls made with the console’s own token.',
  groups: 'Grouping players.',
  integrations: 'Integrations, their keys and redirect URLs.',
  grants: 'OAuth grants.',
  tokens: 'Access and refresh tokens.',
  settings: 'Login service settings.',
  oauth: 'The OAuth flow inspector and the console’s own flows.',
  queues: 'The reference cloud queue server’s queues.',
  faults: 'Failure injection rules.',
  traffic: 'The traffic log.',
  scenarios: 'Saved scenarios and their runs.',
  bundles: 'Repro bundles: export and import.',
  conformance: 'The conformance suite: the platform’s player against a cloud queue server, rule by rule.',
  events: 'Event subscriptions and the deliveries to integrations’ callback URLs.',
  api: 'This description.',
};

export function describeAdminApi(version: string): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const add = (path: string, verb: HttpVerb, operation: OpenApiOperation) => {
    const at = (paths[path] ??= {});
    if (at[verb])
      throw new Error(
        `two commands on ${verb.toUpperCase()} ${path}: ${at[verb].operationId} and ${operation.operationId}`,
      );
    at[verb] = operation;
  };
  const tags = new Set<string>();
  for (const name of Object.keys(commandSpecs) as CommandName[]) {
    const spec = commandSpecs[name];
    const route: HttpRoute = ('http' in spec && spec.http) || { method: 'POST', path: `/commands/${name}` };
    const tag = tagOf(name);
    tags.add(tag);
    add(
      openApiPath(route.path),
      route.method.toLowerCase() as HttpVerb,
      operationOf(name, spec.summary, spec.input, route, tag),
    );
  }
  add('/commands/{name}', 'post', {
    operationId: 'commands.call',
    summary: 'Any command of the table by name, its input as the body (what the console’s own page uses).',
    tags: ['api'],
    parameters: [{ name: 'name', in: 'path', required: true, schema: { enum: Object.keys(commandSpecs) } }],
    requestBody: { required: false, content: { 'application/json': { schema: { type: 'object' } } } },
    responses: answers(200),
  });
  add('/events', 'get', {
    operationId: 'events.stream',
    summary: 'Server-sent events: every engine event as `event: <name>` with its JSON data; `omit` leaves names out.',
    tags: ['api'],
    parameters: [
      {
        name: 'omit',
        in: 'query',
        required: false,
        schema: { type: 'string' },
        description: 'Event names to leave out, comma-separated.',
      },
    ],
    responses: {
      '200': { description: 'The event stream.', content: { 'text/event-stream': { schema: { type: 'string' } } } },
      default: {
        description: 'An error (401 without the token, 403 for a foreign Host or Origin).',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
  });
  tags.add('api');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cloud Queue Console admin API',
      version,
      description:
        'Scripts the console from tests and CI. Generated from the engine’s command table at start. Every call needs the admin token of the ready line as a Bearer token; a Host that is not a loopback name, or a cross-site Origin, gets 403.',
    },
    servers: [{ url: ADMIN_PREFIX, description: 'On the console listener (urls.console of the ready line).' }],
    tags: [...tags].sort().map((name) => ({ name, description: AREAS[name] ?? name })),
    security: [{ adminToken: [] }],
    paths,
    components: {
      securitySchemes: {
        adminToken: { type: 'http', scheme: 'bearer', description: 'The adminToken of the ready line.' },
      },
      schemas: { Error: ERROR_SCHEMA },
    },
  };
}

function tagOf(name: string): string {
  const area = name.split('.')[0]!;
  return area in AREAS ? area : 'api';
}

/** `/queues/:id/items/:itemId` → `/queues/{id}/items/{itemId}` */
function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

function operationOf(name: string, summary: string, input: TSchema, route: HttpRoute, tag: string): OpenApiOperation {
  const pathNames = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const { properties = {}, required = [] } = input as { properties?: Record<string, unknown>; required?: string[] };
  const fieldSchema = (field: string): unknown => plain(properties[field] ?? { type: 'string' });
  const parameters: OpenApiParameter[] = pathNames.map((field) => ({
    name: field,
    in: 'path',
    required: true,
    schema: fieldSchema(field),
  }));
  const rest = Object.keys(properties).filter((field) => !pathNames.includes(field));
  const operation: OpenApiOperation = {
    operationId: name,
    summary,
    tags: [tag],
    responses: answers(route.status ?? 200),
  };
  // GET and DELETE take their fields from the query; the others from a JSON body (routes.ts merges both).
  if (route.method === 'GET' || route.method === 'DELETE') {
    for (const field of rest)
      parameters.push({ name: field, in: 'query', required: required.includes(field), schema: fieldSchema(field) });
  } else if (rest.length > 0 || (input as { type?: unknown }).type !== 'object') {
    const body =
      (input as { type?: unknown }).type === 'object'
        ? {
            ...(plain(input) as object),
            properties: Object.fromEntries(rest.map((field) => [field, fieldSchema(field)])),
            required: required.filter((field) => rest.includes(field)),
          }
        : plain(input);
    operation.requestBody = {
      required: required.some((field) => rest.includes(field)),
      content: { 'application/json': { schema: body } },
    };
  }
  if (parameters.length) operation.parameters = parameters;
  return operation;
}

function answers(status: number): OpenApiOperation['responses'] {
  return {
    [String(status)]: {
      // Any JSON: a list answers an array, most calls an object (outsider: a client generated from
      // `type: object` refused the twenty answers that are arrays). Its summary says which.
      description: 'The command’s answer (see its summary).',
      content: { 'application/json': { schema: {} } },
    },
    default: {
      description: 'An error: its code and message (invalid_input lists every refused place).',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    },
  };
}

/** A schema as JSON: TypeBox keeps its own markers under symbols, which JSON leaves out. */
function plain(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema)) as unknown;
}
