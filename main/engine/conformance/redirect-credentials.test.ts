/**
 * A redirect to another origin is followed without the run's Authorization, as fetch's standard
 * has it: the credentials given for one server are never handed to a host nobody named.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Engine } from '../index.js';
import { startTestEngine } from '../testing/http.js';
import { checkServer } from './testing/check.js';
import { startDefectiveServer, type DefectiveServer } from './testing/defective-server.js';

let engine: Engine;
let target: DefectiveServer;
let redirector: Server;
let redirectorUrl: string;
const seen: (string | undefined)[] = [];

beforeAll(async () => {
  engine = await startTestEngine();
  target = await startDefectiveServer();
  const to = new URL(target.baseUrl);
  // Another port of 127.0.0.1: another origin.
  redirector = createServer((request, response) => {
    seen.push(request.headers.authorization);
    request.resume();
    response.writeHead(307, { location: `${to.origin}${request.url}`, 'content-length': 0 }).end();
  });
  await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
  redirectorUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}${to.pathname}`;
});
afterAll(async () => {
  redirector.closeAllConnections();
  await new Promise((resolve) => redirector.close(resolve));
  await target.close();
  await engine.close();
});

it('follows a redirect to another origin without the Authorization: the server there says 401', async () => {
  const { run } = await checkServer(engine, redirectorUrl, target.authorization);
  // The redirector was asked with the credentials; the other origin never got them.
  expect(seen.filter((authorization) => authorization === target.authorization).length).toBeGreaterThan(0);
  const context = run.cases.find((c) => c.id === 'context')!;
  expect(context).toMatchObject({ outcome: 'fail', message: expect.stringMatching(/got 401/) });
  // Said as what it is, not as a wrong Authorization (audit): where the 401 came from, and why.
  const to = new URL(target.baseUrl).origin;
  expect(context.message).toContain(
    `; it came from ${to}, where ${new URL(redirectorUrl).origin} redirected the request, and the player sends no Authorization to another origin`,
  );
  expect(context.message).not.toMatch(/check the Authorization given to the run/);
  // The evidence names the URL that answered, and its curl follows the redirect as the player did.
  expect(context.exchanges![0]).toMatchObject({
    url: `${redirectorUrl}context`,
    redirectedTo: `${to}${new URL(target.baseUrl).pathname}context`,
    status: 401,
  });
  expect(context.curl).toMatch(/^curl -L /);
  expect(run.status).toBe('failed');
});
