import { describe, expect, it } from 'vitest';
import { checkContext, checkItemWindow, checkTimePlayedAnswer, checkVersion } from './contract-check.js';

const item = (id: string) => ({ id, track: { mediaUrl: `https://media.example/${id}.mp3`, durationMillis: 1000 } });
const window = (ids: string[], extra: object = {}) => ({
  includesBeginningOfQueue: true,
  includesEndOfQueue: true,
  queueVersion: 'v1',
  items: ids.map(item),
  ...extra,
});
const sizes = { previousWindowSize: 1, upcomingWindowSize: 2 };

describe('itemWindow checks', () => {
  it('accepts a window within the sizes asked for', () => {
    const checked = checkItemWindow(window(['a', 'b', 'c', 'd']), { itemId: 'b', ...sizes });
    expect(checked.violations).toEqual([]);
    expect(checked.value?.items).toHaveLength(4);
  });

  it('warns when a side holds more than was asked for', () => {
    const checked = checkItemWindow(window(['a', 'b', 'c', 'd', 'e']), { itemId: 'c', ...sizes });
    expect(checked.value).toBeDefined();
    expect(checked.violations.map((v) => v.message)).toEqual(['2 items before c, more than previousWindowSize=1']);
  });

  it('takes a first window (no itemId) that starts anywhere: a server may resume mid-queue', () => {
    const checked = checkItemWindow(window(['m', 'n', 'o'], { includesBeginningOfQueue: false }), sizes);
    expect(checked.violations).toEqual([]);
    expect(checked.value?.items).toHaveLength(3);
  });

  it('finds a window without the requested item unusable', () => {
    const checked = checkItemWindow(window(['a']), { itemId: 'z', ...sizes });
    expect(checked.value).toBeUndefined();
    expect(checked.violations[0]).toMatchObject({ severity: 'malformed', message: expect.stringContaining('404') });
  });

  it.each([
    ['not an object', 'nope'],
    ['no items', { includesBeginningOfQueue: true, includesEndOfQueue: true, queueVersion: 'v' }],
    ['no queueVersion', window(['a'], { queueVersion: undefined })],
    ['numeric flags', window(['a'], { includesEndOfQueue: 1 })],
    ['an item without mediaUrl', { ...window([]), items: [{ id: 'a', track: {} }] }],
    ['duplicate ids', window(['a', 'a'])],
    ['negative duration', { ...window([]), items: [{ id: 'a', track: { mediaUrl: 'x', durationMillis: -1 } }] }],
  ])('finds %s malformed', (_name, body) => {
    const checked = checkItemWindow(body, sizes);
    expect(checked.value).toBeUndefined();
    expect(checked.violations.some((v) => v.severity === 'malformed')).toBe(true);
  });
});

describe('an item id names one track under one queueVersion (audit: a fleet counted none)', () => {
  const named = (id: string, name: string, mediaUrl = `https://media.example/${id}.mp3`) => ({
    id,
    track: { name, mediaUrl, durationMillis: 1000 },
  });
  const held = { queueVersion: 'v1', items: [named('a', 'A'), named('b', 'B'), named('c', 'C')] };
  // Neither end flagged: these windows are cut from the middle of a queue.
  const answer = (items: object[], queueVersion = 'v1') => ({
    ...window([]),
    includesBeginningOfQueue: false,
    includesEndOfQueue: false,
    queueVersion,
    items,
  });
  const rules = (checked: ReturnType<typeof checkItemWindow>) => checked.violations.map((v) => v.rule);

  it('warns when the next window names another track under an id it held, and still takes it', () => {
    const checked = checkItemWindow(answer([named('b', 'B'), named('c', 'C, another'), named('d', 'D')]), {
      itemId: 'c',
      ...sizes,
      held,
    });
    expect(checked.value).toBeDefined();
    expect(checked.violations).toEqual([
      expect.objectContaining({
        severity: 'warning',
        rule: 'itemWindow.stable-identity',
        message: expect.stringMatching(
          /^c named "C" \(https:\/\/media\.example\/c\.mp3\) in the window held and "C, another" .* under the same queueVersion v1: an item id names one track$/,
        ),
      }),
    ]);
  });

  it('counts the ids so named, and tells a track by its media without the query', () => {
    const checked = checkItemWindow(
      answer([named('a', 'A', 'https://media.example/other.mp3'), named('b', 'B2'), named('c', 'C')]),
      { ...sizes, upcomingWindowSize: 5, held },
    );
    expect(checked.violations.map((v) => v.message)).toEqual([expect.stringMatching(/\(2 ids so\)$/)]);
  });

  it.each([
    ['a signed media URL refreshed', answer([named('a', 'A', 'https://media.example/a.mp3?sig=2')])],
    ['its media from another host of the CDN', answer([named('a', 'A', 'https://edge-2.media.example/a.mp3')])],
    ['its media signed in its path', answer([named('a', 'A', 'https://media.example/hdnts=exp=1~hmac=2/a.mp3')])],
    ['its media at an opaque URL issued anew', answer([named('a', 'A', 'https://cdn.example/p/Zx81q')])],
    ['another queueVersion (the queue was edited)', answer([named('a', 'A, edited')], 'v2')],
    ['ids the held window does not have', answer([named('x', 'A'), named('y', 'B')])],
  ])('is quiet for %s', (_what, body) => {
    expect(rules(checkItemWindow(body, { ...sizes, upcomingWindowSize: 5, held }))).toEqual([]);
  });
});

describe('context and version checks', () => {
  it('accepts the contract shape', () => {
    const body = {
      contextVersion: 'c',
      queueVersion: 'v',
      reports: { sendUpdateAfterMillis: 1000 },
      playbackPolicies: { canSkip: true, pauseTtlSec: 60 },
    };
    expect(checkContext(body)).toEqual({ value: body, violations: [] });
    expect(checkVersion({ queueVersion: 'v' }).value).toEqual({ queueVersion: 'v' });
  });

  it('rejects policies of the wrong type and versions that are missing', () => {
    expect(checkContext({ playbackPolicies: { limitedSkips: 'yes' } }).value).toBeUndefined();
    expect(checkContext({ playbackPolicies: { pauseTtlSec: -5 } }).value).toBeUndefined();
    // An item's own policies are acted on as the queue's are (a pauseTtlSec arms a timer).
    const itemPolicies = (policies: unknown) => window(['a'], { items: [{ ...item('a'), policies }] });
    expect(checkItemWindow(itemPolicies({ pauseTtlSec: 'abc' }), { itemId: 'a', ...sizes })).toEqual({
      violations: [
        expect.objectContaining({
          severity: 'malformed',
          message: 'items[0].policies.pauseTtlSec must be a number of seconds ≥ 0',
        }),
      ],
    });
    expect(checkItemWindow(itemPolicies(['canSkip']), { itemId: 'a', ...sizes }).value).toBeUndefined();
    expect(
      checkItemWindow(itemPolicies({ canSkip: false, pauseTtlSec: 5 }), { itemId: 'a', ...sizes }).value,
    ).toBeDefined();
    expect(checkItemWindow(itemPolicies(null), { itemId: 'a', ...sizes })).toMatchObject({ violations: [] });
    expect(checkVersion({}).value).toBeUndefined();
  });

  it('warns when a context carries no policies', () => {
    expect(checkContext({}).violations).toEqual([expect.objectContaining({ severity: 'warning' })]);
  });
});

describe('the rule each finding names (a stored violation is filed under it)', () => {
  it('prefixes the endpoint to what was broken', () => {
    expect(checkItemWindow(window(['a']), { itemId: 'z', ...sizes }).violations.map((v) => v.rule)).toEqual([
      'itemWindow.requested-item',
    ]);
    expect(
      checkItemWindow(window(['a', 'b', 'c', 'd', 'e']), { itemId: 'c', ...sizes }).violations.map((v) => v.rule),
    ).toEqual(['itemWindow.window-size']);
    expect(checkContext({}).violations.map((v) => v.rule)).toEqual(['context.no-policies']);
    expect(
      checkContext({ playbackPolicies: {}, reports: { periodicIntervalMillis: 'x' } }).violations.map((v) => v.rule),
    ).toEqual(['context.reports']);
    expect(checkVersion([]).violations.map((v) => v.rule)).toEqual(['version.body']);
  });
});

describe('POST /timePlayed answers (docs/contract/console.md §5)', () => {
  it('takes 204, or 200 with an empty body, as nothing to read', () => {
    expect(checkTimePlayedAnswer(204, '')).toEqual({ value: { kind: 'none' }, violations: [] });
    expect(checkTimePlayedAnswer(200, '  ')).toEqual({ value: { kind: 'none' }, violations: [] });
  });

  it('reads a context: its reports and policies', () => {
    const body = {
      contextVersion: 'c2',
      reports: { periodicIntervalMillis: 20_000 },
      playbackPolicies: { canSkip: false },
    };
    expect(checkTimePlayedAnswer(200, JSON.stringify(body))).toEqual({
      value: { kind: 'context', reports: { periodicIntervalMillis: 20_000 }, playbackPolicies: { canSkip: false } },
      violations: [],
    });
  });

  it.each([
    ['an empty object', '{}', /^JSON that is not a context object/],
    ['JSON that is not an object', '[1,2]', /^JSON that is not a context object/],
    ['a body that is not JSON', 'OK', /^a body that is not JSON$/],
    [
      'a context the player cannot use',
      '{"reports":{"periodicIntervalMillis":"often"}}',
      /^a context the player cannot use \(/,
    ],
  ])('finds %s unreadable, saying what it is: a warning, never a failure', (_name, text, why) => {
    const checked = checkTimePlayedAnswer(200, text);
    expect(checked.value).toEqual({ kind: 'unreadable', why: expect.stringMatching(why) });
    expect(checked.violations).toEqual([
      expect.objectContaining({
        endpoint: 'timePlayed',
        severity: 'warning',
        rule: 'timePlayed.answer',
        message: expect.stringContaining('no more update reports'),
      }),
    ]);
  });
});

describe("a queue's ends stay put under one queueVersion (audit: check's walk stops at 20,000 items)", () => {
  const item = (id: string) => ({ id, track: { name: id, mediaUrl: `https://media.example/${id}.mp3` } });
  const held = (flags: { includesBeginningOfQueue?: boolean; includesEndOfQueue?: boolean }, ids: string[]) => ({
    queueVersion: 'v1',
    items: ids.map(item),
    ...flags,
  });
  const answer = (ids: string[], flags: { begins?: boolean; ends?: boolean } = {}, queueVersion = 'v1') => ({
    ...window([]),
    includesBeginningOfQueue: flags.begins ?? false,
    includesEndOfQueue: flags.ends ?? false,
    queueVersion,
    items: ids.map(item),
  });
  const endsSaid = (checked: ReturnType<typeof checkItemWindow>) =>
    checked.violations.filter((v) => v.rule === 'itemWindow.queue-ends').map((v) => v.message);
  const ask = { itemId: 'c', previousWindowSize: 5, upcomingWindowSize: 10 };

  it('warns when an item comes after the one the window held flagged as the last', () => {
    const checked = checkItemWindow(answer(['b', 'c', 'd'], { ends: true }), {
      ...ask,
      held: held({ includesEndOfQueue: true }, ['a', 'b', 'c']),
    });
    expect(checked.value).toBeDefined();
    expect(endsSaid(checked)).toEqual([
      "the window held said includesEndOfQueue true, ending at its last item; this one holds d after c, under the same queueVersion v1: a queue's ends stay put",
    ]);
  });

  it('warns when this window flags an end the window held goes beyond, and a beginning either way', () => {
    expect(
      endsSaid(checkItemWindow(answer(['b', 'c'], { ends: true }), { ...ask, held: held({}, ['b', 'c', 'd']) })),
    ).toEqual([expect.stringMatching(/^this window says includesEndOfQueue true, .* holds d after c/)]);
    expect(
      endsSaid(
        checkItemWindow(answer(['a', 'b', 'c']), {
          ...ask,
          held: held({ includesBeginningOfQueue: true }, ['b', 'c']),
        }),
      ),
    ).toEqual([expect.stringMatching(/^the window held said includesBeginningOfQueue true, .* holds a before b/)]);
  });

  it.each([
    ['the same ends', answer(['b', 'c'], { ends: true }), held({ includesEndOfQueue: true }, ['a', 'b', 'c'])],
    [
      'another queueVersion (the queue was edited)',
      answer(['b', 'c', 'd'], {}, 'v2'),
      held({ includesEndOfQueue: true }, ['a', 'b', 'c']),
    ],
    [
      'windows that do not meet',
      answer(['x', 'c2'], { ends: true }),
      held({ includesEndOfQueue: true }, ['a', 'b', 'c']),
    ],
    ['no flag on either', answer(['b', 'c', 'd']), held({}, ['a', 'b', 'c'])],
  ])('is quiet for %s', (_what, body, was) => {
    expect(endsSaid(checkItemWindow(body, { previousWindowSize: 5, upcomingWindowSize: 10, held: was }))).toEqual([]);
  });
});
