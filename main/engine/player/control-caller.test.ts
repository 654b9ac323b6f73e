/**
 * The command bar's `control.send`: a body of `null` is no body (an exchange says `requestBody:
 * null` for none), and a GET with a body is refused as bad input. Both answered 500 before, with
 * fetch's own words ("Request with GET/HEAD method cannot have body").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlExchange } from '../api/commands/player.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';

describe('control.send', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await startTestEngine({ dataDir: null, clockSpeed: 0 });
  });
  afterAll(() => engine.close());

  it('sends a GET whose body is null with no body', async () => {
    const answer = await admin(engine, 'POST', '/control/send', {
      method: 'GET',
      path: '/api/v1/households',
      body: null,
    });
    expect(answer.status).toBe(200);
    const exchange = answer.body as ControlExchange;
    expect(exchange.status).toBe(200);
    expect(exchange.requestBody).toBeNull();
    expect(exchange.body).toEqual({ households: [expect.objectContaining({ id: 'household-demo' })] });
  });

  it('refuses a GET with a body, 400, saying how to send it', async () => {
    const answer = await admin(engine, 'POST', '/control/send', {
      method: 'GET',
      path: '/api/v1/households',
      body: {},
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: expect.objectContaining({
        code: 'invalid_input',
        message: expect.stringMatching(/a GET carries no body/),
      }),
    });
  });

  it('sends a POST whose body is null as one without a body', async () => {
    const answer = await admin(engine, 'POST', '/control/send', {
      method: 'POST',
      path: '/api/v1/groups/group-kitchen/playback:1/play',
      body: null,
    });
    expect(answer.status).toBe(200);
    const exchange = answer.body as ControlExchange;
    expect(exchange.requestBody).toBeNull();
    // Nothing loaded: the control API's own refusal, not a 500 of the console's.
    expect(exchange.status).toBeGreaterThanOrEqual(400);
    expect(exchange.status).toBeLessThan(500);
  });
});
