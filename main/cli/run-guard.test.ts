/**
 * `run FILE` in CI replays files anyone may have written (docs/contract/console.md §9). Each test
 * is an attack on the job that runs it: a bundle that points the console's player (with its
 * Authorization) at another host, a run that never ends, a file of gigabytes, JSON nested to blow
 * the stack. Each ends in bounded time with exit 2 (nothing ran) or 1 (stopped at its deadline).
 */
import { createServer, type Server } from 'node:http';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDirs } from '../engine/testing/temp-dirs.js';
import { admin, startTestEngine } from '../engine/testing/http.js';
import { outboundPolicy, ownHosts, parseAllowedHost } from './run-guard.js';
import { MAX_JSON_CONTAINERS } from '../engine/http/json-depth.js';
import { MAX_JSON_FILE_BYTES } from './json-file.js';
import { runCli } from '../testing/cli.js';

const tempDir = tempDirs('cqc-run-guard-');

const writeJson = (name: string, value: unknown) => {
  const file = join(tempDir(), name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
};

/** A scenario that loads a queue from `baseUrl` on Kitchen with a secret Authorization. */
function loadingFrom(baseUrl: string) {
  return {
    name: 'points elsewhere',
    steps: [
      {
        type: 'command',
        method: 'POST',
        path: '/api/v1/groups/group-kitchen/playbackSession:1',
        body: { appId: 'com.example', appContext: 'x' },
        save: { session: 'sessionId' },
      },
      {
        type: 'command',
        method: 'POST',
        path: '/api/v1/playbackSessions/${session}/playbackSession:1/loadCloudQueue',
        body: { queueBaseUrl: baseUrl, httpAuthorization: 'Bearer ci-secret' },
        expectStatus: 200,
      },
    ],
  };
}

let elsewhere: Server;
let calls = 0;
beforeAll(async () => {
  // Stands for a host on the CI machine's network: it must never hear from the run.
  elsewhere = createServer((_request, response) => {
    calls++;
    response.writeHead(503).end();
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => elsewhere.close(() => resolve())));

const elsewhereUrl = () => `http://127.0.0.1:${(elsewhere.address() as { port: number }).port}/queues/q/v2.3/`;

describe('a URL the run builds as it goes meets the same rule (the engine gate run sets)', () => {
  it('a load of another loopback port is refused before it leaves, saying why', async () => {
    let own: ReadonlySet<string> = new Set();
    const policy = outboundPolicy(() => own, []);
    const engine = await startTestEngine({ clockSpeed: 0, outbound: policy });
    own = ownHosts(engine.urls);
    try {
      const before = calls;
      const send = async (path: string, body: unknown) =>
        (await admin(engine, 'POST', '/control/send', { method: 'POST', path, body })).body as {
          status: number;
          body: Record<string, unknown>;
        };
      const session = await send('/api/v1/groups/group-kitchen/playbackSession:1', { appId: 'a.b', appContext: 'x' });
      const load = await send(
        `/api/v1/playbackSessions/${session.body.sessionId as string}/playbackSession:1/loadCloudQueue`,
        { queueBaseUrl: elsewhereUrl(), httpAuthorization: 'Bearer ci-secret' },
      );
      expect(load.status).not.toBe(200);
      expect(calls).toBe(before);
      const player = (await admin(engine, 'GET', '/players/player-kitchen')).body as { lastError: { message: string } };
      expect(player.lastError.message).toMatch(
        /run calls no host but this console's own: http:\/\/127\.0\.0\.1:\d+ is refused \(if you trust the file: --allow-host 127\.0\.0\.1:\d+\)/,
      );
      // Its own cloud queue server is its own: allowed.
      expect(policy(new URL(engine.urls.cloudQueue))).toBeNull();
      expect(outboundPolicy(() => new Set(), [new URL(elsewhereUrl()).host])(new URL(elsewhereUrl()))).toBeNull();
    } finally {
      await engine.close();
    }
  });
});

describe('what a file carries that is no part of its steps', () => {
  const idle = (name: string) => ({
    name,
    steps: [
      { type: 'clock', advanceMs: 1_000 },
      { type: 'expect', playerId: 'player-kitchen', state: 'PLAYBACK_STATE_IDLE' },
    ],
  });

  it('a byte order mark before the JSON (as Windows editors save UTF-8) is read past', async () => {
    const { code, stdout, stderr } = await runCli('run', writeJson('bom.json', `\uFEFF${JSON.stringify(idle('bom'))}`));
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^run .*bom\.json: /);
  });

  it("the file's control characters never reach the terminal", async () => {
    const { code, stdout } = await runCli('run', writeJson('evil.json', idle('evil \u001b[31mred\u0007\u0000')));
    expect(code).toBe(0);
    // eslint-disable-next-line no-control-regex
    expect(stdout).not.toMatch(/[\u0000-\u0008\u001b\u007f]/);
    expect(stdout).toContain('evil \ufffd[31mred\ufffd\ufffd');
  });
});

describe('run refuses a file that checks nothing: its PASS would say nothing', () => {
  it('steps that cannot fail on what the console does: exit 2, nothing run, no report', async () => {
    const json = join(tempDir(), 'unchecked.report.json');
    const { code, stderr, stdout } = await runCli(
      'run',
      writeJson('unchecked.json', {
        name: 'after clearing the traffic',
        steps: [
          { type: 'clearFaults' },
          { type: 'clock', advanceMs: 1_000 },
          { type: 'fault', rule: { target: 'cloudQueue', action: { type: 'status', status: 500 } } },
          { type: 'clock', advanceMs: 700_000 },
        ],
      }),
      '--json',
      json,
    );
    expect(code, stdout).toBe(2);
    expect(stderr).toMatch(
      /unchecked\.json checks nothing: none of its 4 steps is an expectation or a call whose answer is checked/,
    );
    expect(existsSync(json)).toBe(false);
  });

  it('an expectation that names nothing: exit 2, saying which', async () => {
    const { code, stderr } = await runCli(
      'run',
      writeJson('empty-expect.json', {
        name: 'empty',
        steps: [
          { type: 'clock', advanceMs: 1 },
          { type: 'expect', playerId: 'player-kitchen' },
        ],
      }),
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/step 2 \(expect player-kitchen\) names nothing to check/);
  });
});

describe('run refuses names no run can meet, before anything runs', () => {
  it('a transition no row has, and a player the console does not have: exit 2, each named', async () => {
    const { code, stderr, stdout } = await runCli(
      'run',
      writeJson('names.json', {
        name: 'misspelt',
        steps: [
          { type: 'clock', advanceMs: 1 },
          { type: 'expect', playerId: 'player-kitchen', transitions: ['teleported'] },
          { type: 'action', playerId: 'player-nowhere', action: 'play' },
        ],
      }),
    );
    expect(code, stdout).toBe(2);
    expect(stderr).toMatch(/step 2 \(expect\) names transition teleported, which no row of the player's table has/);
    expect(stderr).toMatch(/step 3 \(action\) names player player-nowhere, which this console does not have/);
    expect(stderr).toMatch(/GET \/admin\/api\/player-table/);
  });

  it('a request line no player makes, and a ref given twice: exit 2, each named (audit X8)', async () => {
    const { code, stderr, stdout } = await runCli(
      'run',
      writeJson('requests.json', {
        name: 'nonsense',
        steps: [
          { type: 'clock', advanceMs: 1 },
          { type: 'expect', playerId: 'player-kitchen', requests: ['nonsense', 'itemWindow load → 200'] },
        ],
      }),
    );
    expect(code, stdout).toBe(2);
    expect(stderr).toMatch(/step 2 \(expect\) names request "nonsense", which no player's request is/);
    expect(stderr).toMatch(/step 2 \(expect\) names request "itemWindow load → 200", which no player's request is/);
    const twice = await runCli(
      'run',
      writeJson('twice.json', {
        name: 'twice',
        steps: [
          { type: 'fault', ref: 'r1', rule: { target: 'cloudQueue', action: { type: 'status', status: 500 } } },
          { type: 'fault', ref: 'r1', rule: { target: 'cloudQueue', action: { type: 'status', status: 503 } } },
          { type: 'faultRemove', rule: 'r1' },
          { type: 'expect', playerId: 'player-kitchen', state: 'IDLE' },
        ],
      }),
    );
    expect(twice.code, twice.stdout).toBe(2);
    // Given again once its rule was removed, it names the new one: no refusal for that.
    const readded = await runCli(
      'run',
      writeJson('readded.json', {
        name: 'readded',
        steps: [
          { type: 'fault', ref: 'r1', rule: { target: 'cloudQueue', action: { type: 'status', status: 500 } } },
          { type: 'faultRemove', rule: 'r1' },
          { type: 'fault', ref: 'r1', rule: { target: 'cloudQueue', action: { type: 'status', status: 503 } } },
          { type: 'faultRemove', rule: 'r1' },
          { type: 'expect', playerId: 'player-kitchen', state: 'IDLE' },
        ],
      }),
    );
    expect(readded.stderr).not.toMatch(/gives ref r1 again/);
    expect(readded.code, readded.stdout + readded.stderr).toBe(0);
    expect(twice.stderr).toMatch(
      /\/steps\/1 gives ref r1 again, while the rule it named is live: a ref names one rule at a time/,
    );
  });
});

describe('run refuses what it cannot run safely', () => {
  it('a scenario that would make the player call another host: exit 2, nothing sent, the host named', async () => {
    const json = join(tempDir(), 'elsewhere.report.json');
    const { code, stderr } = await runCli(
      'run',
      writeJson('elsewhere.json', loadingFrom(elsewhereUrl())),
      '--json',
      json,
    );
    expect(code).toBe(2);
    // Nothing ran, so no report: not an empty file a CI step would fail to parse.
    expect(existsSync(json)).toBe(false);
    expect(stderr).toMatch(
      /would call hosts other than this console's own: step 2 \(command\): http:\/\/127\.0\.0\.1:\d+/,
    );
    expect(stderr).toMatch(/--allow-host 127\.0\.0\.1:\d+/);
    expect(calls).toBe(0);
  });

  it.each([
    // The WHATWG parser the engine uses reads what comes before `@` as userinfo, spaces and all.
    ['a space before @', (host: string) => `http://127.0.0.1 @${host}/queues/q/v2.3/`],
    ['a tab before @', (host: string) => `http://localhost\t@${host}/queues/q/v2.3/`],
    ['a variable after the host', (host: string) => `http://${host}/queues/\${session}/v2.3/`],
    ['a variable in the userinfo', (host: string) => `http://\${session}@${host}/queues/q/v2.3/`],
    // A service variable is a whole URL: what follows its `@` is the host the engine calls.
    ['a service URL as the userinfo', (host: string) => `\${cloudQueue}@${host}/queues/q/v2.3/`],
  ])('(audit) a URL with %s is judged by the host the engine would call: exit 2', async (_what, url) => {
    const host = new URL(elsewhereUrl()).host;
    const { code, stderr } = await runCli('run', writeJson('tricky.json', loadingFrom(url(host))));
    expect(code).toBe(2);
    expect(stderr).toContain(`--allow-host ${host}`);
    // Each step's host named once, whichever way it was read.
    expect(stderr.split(`step 2 (command): http://${host}`)).toHaveLength(2);
    expect(calls).toBe(0);
  });

  it('names 30,000 outside hosts in one step as fast as one (review: a list made it quadratic, 47 s at 40,000)', async () => {
    const file = loadingFrom(elsewhereUrl());
    const hosts = Array.from({ length: 30_000 }, (_, i) => `http://h${i}.example/`);
    (file.steps[1] as { body: Record<string, unknown> }).body.notes = hosts;
    const started = performance.now();
    const { code, stderr } = await runCli('run', writeJson('many-hosts.json', file));
    expect(code).toBe(2);
    expect(stderr).toMatch(/and 29,?996 more/);
    // About 0.3 s here; the list took 7 s at 15,000 and grew with the square.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("(audit) a queue edit's mediaUrl on another host is the item's content, not a call: it runs", async () => {
    const { code, stdout, stderr } = await runCli(
      'run',
      writeJson('media.json', {
        name: 'a track added',
        steps: [
          {
            type: 'queueEdit',
            command: 'queues.update',
            input: { id: 'no-such-queue', name: 'x', items: [{ track: { mediaUrl: `${elsewhereUrl()}a.mp3` } }] },
          },
          { type: 'expect', playerId: 'player-kitchen', state: 'IDLE' },
        ],
      }),
    );
    expect(stderr).not.toMatch(/would call hosts/);
    // It ran (the edit names no queue of this console, so that step fails): nothing was called.
    expect(stdout).toMatch(/queueEdit|queues\.update/);
    expect([0, 1]).toContain(code);
    expect(calls).toBe(0);
  });

  it("(audit) a load's trackMetadata on another host is the track's content, not a call: only the queue's host counts", async () => {
    const file = loadingFrom('${cloudQueue}/queues/no-such-queue/v2.3/');
    const load = file.steps[1] as { body: Record<string, unknown> };
    load.body.itemId = 'item-1';
    load.body.trackMetadata = {
      name: 'One',
      mediaUrl: `${elsewhereUrl()}one.mp3`,
      imageUrl: `${elsewhereUrl()}one.jpg`,
    };
    const { stderr } = await runCli('run', writeJson('metadata.json', file));
    expect(stderr).not.toMatch(/would call hosts/);
    expect(calls).toBe(0);
    // Anywhere else in a step, the same URL is still a call it refuses.
    load.body.notes = `${elsewhereUrl()}one.mp3`;
    const refused = await runCli('run', writeJson('metadata-elsewhere.json', file));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/would call hosts other than this console's own/);
  });

  it('--allow-host names a host the run may call: then it runs', async () => {
    const host = new URL(elsewhereUrl()).host;
    const { code, stdout } = await runCli(
      'run',
      writeJson('allowed.json', loadingFrom(elsewhereUrl())),
      '--allow-host',
      host,
    );
    // The host answers 503 to the load: the step fails, but it ran and called that host.
    expect(code, stdout).toBe(1);
    expect(calls).toBeGreaterThan(0);
  });

  it('a redirect from a host --allow-host names to one it does not: not followed, the host never called (audit)', async () => {
    // The allowed host sends every request on to the other one, with a 307 that keeps the method.
    const front = createServer((request, response) =>
      response.writeHead(307, { location: `${elsewhereUrl().replace(/\/$/, '')}${request.url}` }).end(),
    );
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const frontUrl = `http://127.0.0.1:${(front.address() as { port: number }).port}/`;
    try {
      const before = calls;
      const { code, stdout } = await runCli(
        'run',
        writeJson('redirected.json', loadingFrom(frontUrl)),
        '--allow-host',
        new URL(frontUrl).host,
      );
      expect(code, stdout).toBe(1);
      expect(calls).toBe(before);
      expect(stdout).toMatch(/redirected to http:\/\/127\.0\.0\.1:\d+: run calls no host but this console's own/);
    } finally {
      await new Promise<void>((resolve) => front.close(() => resolve()));
    }
  });

  it('stops at its --timeout: a load from a server that never answers ends at the deadline, exit 1', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const host = `127.0.0.1:${(silent.address() as { port: number }).port}`;
      const scenario = loadingFrom(`http://${host}/queues/q/v2.3/`);
      // Real time: the load waits its 10 s for the silent server, and the run must not.
      scenario.steps.splice(1, 0, { type: 'clock', speed: 1 } as never);
      const started = performance.now();
      const json = join(tempDir(), 'silent.report.json');
      const { code, stdout } = await runCli(
        'run',
        writeJson('silent.json', scenario),
        '--timeout',
        '2',
        '--allow-host',
        host,
        '--json',
        json,
      );
      expect(code, stdout).toBe(1);
      expect(stdout).toMatch(/FAILED · the run passed its deadline of 2 s of wall time/);
      // The report says what was known when it stopped, never an empty file.
      const report = JSON.parse(readFileSync(json, 'utf8')) as {
        passed: boolean;
        deadline: string;
        steps: { status: string; message: string }[];
      };
      expect(report).toMatchObject({ passed: false, deadline: expect.stringMatching(/deadline of 2 s/) });
      expect(report.steps[0]!.status).toBe('passed');
      expect(report.steps.some((step) => step.status === 'failed' && /deadline/.test(step.message))).toBe(true);
      expect(performance.now() - started).toBeLessThan(8_000);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('a file over the cap is refused by its size, before it is read', async () => {
    const file = join(tempDir(), 'huge.json');
    const fd = openSync(file, 'w');
    // Sparse: the size says gigabytes, the disk holds next to nothing.
    writeSync(fd, '{', MAX_JSON_FILE_BYTES + 1024);
    closeSync(fd);
    const started = performance.now();
    const { code, stderr } = await runCli('run', file);
    expect(code).toBe(2);
    expect(stderr).toMatch(/takes files of up to 268,435,456 bytes/);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('JSON nested 100,000 deep is exit 2 (a file it cannot run), not a crash', async () => {
    const deep = `{"name":"deep","steps":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const { code, stderr } = await runCli('run', writeJson('deep.json', deep));
    expect(code).toBe(2);
    expect(stderr).toMatch(/nests arrays and objects more than 100 deep/);
  });

  it('millions of tiny objects (well under the byte cap) are exit 2 before JSON.parse builds them', async () => {
    const many = `{"name":"many","steps":[],"har":[${'{},'.repeat(MAX_JSON_CONTAINERS)}{}]}`;
    const started = performance.now();
    const { code, stderr } = await runCli('run', writeJson('many.json', many));
    expect(code).toBe(2);
    expect(stderr).toMatch(/holds more than 4,000,000 JSON objects and arrays/);
    // Parsed, the same file took seconds and a gigabyte; refused, it takes the scan.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('(audit) tens of millions of numbers are exit 2 before JSON.parse builds them', async () => {
    // 21 million values in 42 MB: one array, so the containers alone never count them.
    const numbers = `{"name":"numbers","steps":[],"har":[${'1,'.repeat(21_000_000)}1]}`;
    const started = performance.now();
    const { code, stderr } = await runCli('run', writeJson('numbers.json', numbers));
    expect(code).toBe(2);
    expect(stderr).toMatch(/or 20,000,000 values/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it.each([
    ['a trailing comma', '{\n  "name": "x",\n  "steps": [],\n}\n', /line 4, column 1: a property name/],
    ['a word that is not a value', '{\n  "name": "x",\n  "steps": tru\n}', /line 3, column 12: not a JSON value/],
    ['a file cut short', '{\n  "name": "x",\n  "steps": [\n', /line 4, column 1: a closing \] was expected/],
    ['a comment', '// mine\n{"name": "x", "steps": []}', /line 1, column 1: JSON has no comments/],
  ])('(audit) a syntax error says its line and column: %s', async (_what, text, message) => {
    const { code, stderr } = await runCli('run', writeJson('broken.json', text));
    expect(code).toBe(2);
    expect(stderr).toMatch(/broken\.json is not JSON: /);
    expect(stderr).toMatch(message);
    // The line itself, with a caret under the column.
    expect(stderr).toMatch(/\n {2}.*\n {2} *\^/);
  });

  it('--timeout and --allow-host refuse values that are not what they take', async () => {
    for (const argv of [
      ['--timeout', '0'],
      ['--timeout', 'soon'],
      ['--timeout', '0x10'],
      ['--timeout', ''],
      ['--timeout', '86401'],
      ['--allow-host', 'http://x/'],
      ['--allow-host', 'a b'],
    ]) {
      const { code } = await runCli(
        'run',
        writeJson('x.json', { name: 'x', steps: [{ type: 'clock', speed: 0 }] }),
        ...argv,
      );
      expect(code, argv.join(' ')).toBe(2);
    }
    expect(parseAllowedHost('Staging.Example.com:8443')).toBe('staging.example.com:8443');
  });
});
