/**
 * A failing or warning case carries its evidence into the run itself (docs/contract/console.md
 * §8): the exchanges it rests on with secrets masked and bodies cut at 4 KB, the decisive one
 * first, and a curl that repeats it with the Authorization left to the shell.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CASE_EXCHANGES, MAX_EVIDENCE_BODY_BYTES } from '../api/conformance-types.js';
import type { Engine } from '../index.js';
import { startTestEngine } from '../testing/http.js';
import { bodyOf, decisiveAnswer, replayCurl } from './evidence.js';
import type { Answer } from './server.js';
import { checkServer } from './testing/check.js';
import { startDefectiveServer, type DefectiveServer } from './testing/defective-server.js';

let engine: Engine;
let server: DefectiveServer | null = null;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
});
afterAll(() => engine.close());
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('the evidence a run keeps of a failing case', () => {
  it('holds the decisive exchange first, masked, with a curl that repeats it; passes carry none', async () => {
    server = await startDefectiveServer({ defects: ['unknownItemFromStart'] });
    const { run } = await checkServer(engine, server.baseUrl, server.authorization);
    const failing = run.cases.find((c) => c.id === 'item-window.unknown-item')!;
    expect(failing.outcome).toBe('fail');
    const [decisive] = failing.exchanges!;
    expect(decisive).toMatchObject({ method: 'GET', status: 200, failure: null, responseBody: { cut: false } });
    expect(decisive!.url).toMatch(/\/itemWindow\?.*itemId=cqc-check-no-such-item-/);
    expect(decisive!.requestHeaders).toMatchObject({ authorization: expect.stringMatching(/^Bearer toke•••$/) });
    expect(JSON.parse(decisive!.responseBody!.text)).toMatchObject({ items: expect.any(Array) });
    expect(failing.curl).toMatch(/^curl '.*\/itemWindow\?.*itemId=cqc-check-no-such-item-/);
    expect(failing.curl).toContain('-H "Authorization: $AUTHORIZATION"');
    expect(JSON.stringify(run)).not.toContain(server.authorization.split(' ')[1]);
    for (const passed of run.cases.filter((c) => c.outcome === 'pass'))
      expect(passed, passed.id).not.toHaveProperty('exchanges');
  });

  it('(audit) keeps every response header as it came, a cookie masked', async () => {
    server = await startDefectiveServer({
      defects: ['unknownItemFromStart'],
      extraHeaders: { 'x-served-by': 'queue-7', 'cache-control': 'no-store', 'set-cookie': 'session=s3cr3t-value' },
    });
    const { run } = await checkServer(engine, server.baseUrl, server.authorization);
    const [decisive] = run.cases.find((c) => c.id === 'item-window.unknown-item')!.exchanges!;
    expect(decisive!.responseHeaders).toMatchObject({
      'content-type': 'application/json',
      'x-served-by': 'queue-7',
      'cache-control': 'no-store',
    });
    expect(JSON.stringify(run)).not.toContain('s3cr3t-value');
  });

  it("keeps the suite's own made-up token in clear, and picks the request the message names among its like", async () => {
    server = await startDefectiveServer({ defects: ['acceptsWrongToken'] });
    const { run } = await checkServer(engine, server.baseUrl, server.authorization);
    const auth = run.cases.find((c) => c.id === 'auth.wrong-token')!;
    expect(auth.outcome).toBe('fail');
    expect(auth.message).toMatch(/^GET \/context with a made-up token: expected 401, got 200/);
    expect(auth.exchanges![0]).toMatchObject({ url: expect.stringMatching(/\/context$/), status: 200 });
    expect(auth.curl).toMatch(/-H 'authorization: Bearer cqc-check-wrong-[\w-]+'$/);
  });

  it('bounds the exchanges of a case that rests on many', async () => {
    server = await startDefectiveServer({ defects: ['beginningAlwaysTrue'], items: 12_000 });
    const { run } = await checkServer(engine, server.baseUrl, server.authorization);
    const ends = run.cases.find((c) => c.id === 'item-window.queue-ends')!;
    expect(ends.outcome).toBe('fail');
    expect(ends.exchanges).toHaveLength(MAX_CASE_EXCHANGES);
    expect(ends.exchangesLeftOut).toBeGreaterThan(0);
    for (const exchange of ends.exchanges!)
      expect(Buffer.byteLength(exchange.responseBody?.text ?? '')).toBeLessThanOrEqual(MAX_EVIDENCE_BODY_BYTES);
    expect(ends.exchanges!.some((exchange) => exchange.responseBody?.cut)).toBe(true);
  });
});

describe('a body as a report keeps it', () => {
  it('is its first 4 KB, never half a character, and says it was cut and how big it was', () => {
    const text = `${'a'.repeat(MAX_EVIDENCE_BODY_BYTES - 1)}é and more`;
    const body = bodyOf(text)!;
    expect(body).toEqual({ text: 'a'.repeat(MAX_EVIDENCE_BODY_BYTES - 1), bytes: Buffer.byteLength(text), cut: true });
    expect(bodyOf('{"access_token":"abcdefgh","x":1}')).toEqual({
      text: '{"access_token":"abcd•••","x":1}',
      bytes: 33,
      cut: false,
    });
    expect(bodyOf('')).toBeNull();
  });
});

describe('the decisive request', () => {
  const answer = (url: string, status: number | undefined): Answer =>
    ({
      exchange: { method: 'GET', url, endpoint: url.split('/').pop()!.split('?')[0] },
      status,
      text: '',
      json: undefined,
      failure: status === undefined ? 'no answer' : undefined,
    }) as unknown as Answer;

  it('is the one the message names, of several alike the one whose status it got, else the last that was not 2xx', () => {
    const a = answer('http://h/q/itemWindow?reason=load', 401);
    const b = answer('http://h/q/itemWindow?reason=load', 200);
    const c = answer('http://h/q/version', 200);
    expect(decisiveAnswer('GET /itemWindow?reason=load with no Authorization: expected 401, got 200', [a, b, c])).toBe(
      b,
    );
    expect(decisiveAnswer('GET /version: 5', [a, b, c])).toBe(c);
    expect(decisiveAnswer('the window starts at item 30', [a, b, c])).toBe(a);
  });
});

describe('the curl of a decisive request', () => {
  it("leaves the run's Authorization to the shell, among the headers and before the body", () => {
    const answer = {
      exchange: {
        method: 'POST',
        url: 'http://h/q/timePlayed',
        requestHeaders: { 'content-type': 'application/json', authorization: 'Bearer secret-token' },
        requestBody: '{"items":[]}',
      },
    } as unknown as Answer;
    expect(replayCurl(answer)).toBe(
      `curl -X 'POST' 'http://h/q/timePlayed' \\\n  -H 'content-type: application/json' \\\n  -H "Authorization: $AUTHORIZATION" \\\n  --data-raw '{"items":[]}'`,
    );
  });
});
