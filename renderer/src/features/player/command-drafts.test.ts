import { describe, expect, it } from 'vitest';
import { OFFER_WAITS_MS, useLoadOffer } from '../../stores/load-offer';
import { curlOf } from '@engine-api/curl';
import {
  copyableOf,
  exampleFields,
  NEW_DRAFT,
  requestOf,
  requestProblem,
  useCommandDrafts,
  type Fields,
} from './command-drafts';

const offer = (playerId: string, at: number) => ({
  playerId,
  queueName: 'Morning',
  queueBaseUrl: 'http://127.0.0.1:47103/queues/q/v2.3/',
  httpAuthorization: 'Bearer t',
  at,
});

describe('a load offered from the Queues area', () => {
  it("becomes its player's loadCloudQueue draft, once, keeping playOnCompletion and dropping the old item and answer", () => {
    const drafts = useCommandDrafts.getState();
    drafts.patch('p1', {
      command: 'skipToItem',
      fields: {
        ...NEW_DRAFT.fields,
        queueBaseUrl: 'old',
        httpAuthorization: 'old',
        itemId: 'item-9',
        positionMillis: '5',
        deltaMillis: '-5',
        seekLevel: 'session',
        playOnCompletion: false,
      },
      as: 'grant-1',
      error: 'earlier',
    });
    useLoadOffer.getState().offer(offer('p1', 1_000));
    // Another player's command bar leaves it alone.
    expect(useCommandDrafts.getState().takeOffer('p2', 1_100)).toBeNull();
    expect(useCommandDrafts.getState().takeOffer('p1', 1_200)).toMatchObject({ queueName: 'Morning' });
    expect(useCommandDrafts.getState().takeOffer('p1', 1_300)).toBeNull();
    const { byPlayer } = useCommandDrafts.getState();
    expect(useLoadOffer.getState().offered).toBeNull();
    expect(byPlayer.p1).toEqual({
      command: 'loadCloudQueue',
      fields: {
        ...NEW_DRAFT.fields,
        queueBaseUrl: 'http://127.0.0.1:47103/queues/q/v2.3/',
        httpAuthorization: 'Bearer t',
        itemId: '',
        positionMillis: '',
        deltaMillis: '-5',
        seekLevel: 'session',
        playOnCompletion: false,
      },
      // Whom it is sent as stays as picked.
      as: 'grant-1',
      answer: null,
      error: null,
      handedOver: 'Morning',
    });
    expect(byPlayer.p2).toBeUndefined();
  });

  it('is not kept for whenever its player next shows: a stale offer goes unused', () => {
    useLoadOffer.getState().offer(offer('p3', 0));
    expect(useCommandDrafts.getState().takeOffer('p3', OFFER_WAITS_MS + 1)).toBeNull();
    expect(useLoadOffer.getState().offered).toBeNull();
    expect(useCommandDrafts.getState().byPlayer.p3).toBeUndefined();
  });
});

describe('the request a draft sends', () => {
  const fields = (change: Partial<Fields>): Fields => ({ ...NEW_DRAFT.fields, ...change });
  const withSession = { groupId: 'group-kitchen', sessionId: 'session-1' };
  const noSession = { groupId: 'group-kitchen', sessionId: null };

  it('seeks at group level (playback:1), with or without a session, the itemId only when typed', () => {
    expect(NEW_DRAFT.fields.seekLevel).toBe('group');
    expect(requestOf('seek', fields({ positionMillis: '90000' }), noSession)).toEqual({
      method: 'POST',
      path: '/api/v1/groups/group-kitchen/playback:1/seek',
      body: { positionMillis: 90_000 },
    });
    expect(requestOf('seekRelative', fields({ deltaMillis: '-10000', itemId: ' t1 ' }), withSession)).toEqual({
      method: 'POST',
      path: '/api/v1/groups/group-kitchen/playback:1/seekRelative',
      body: { deltaMillis: -10_000, itemId: 't1' },
    });
  });

  it('seeks at session level (playbackSession:1), which needs the session', () => {
    const session = fields({ seekLevel: 'session', positionMillis: '5000', deltaMillis: '2500', itemId: 't3' });
    expect(requestOf('seek', session, withSession)).toEqual({
      method: 'POST',
      path: '/api/v1/playbackSessions/session-1/playbackSession:1/seek',
      body: { positionMillis: 5_000, itemId: 't3' },
    });
    expect(requestOf('seekRelative', session, withSession)).toEqual({
      method: 'POST',
      path: '/api/v1/playbackSessions/session-1/playbackSession:1/seekRelative',
      body: { deltaMillis: 2_500, itemId: 't3' },
    });
    expect(requestOf('seek', session, noSession)).toBeNull();
  });

  it('leaves an empty position or delta out, so the control API says what is missing', () => {
    expect(requestOf('seek', fields({}), withSession)?.body).toEqual({});
    expect(requestOf('seekRelative', fields({ positionMillis: '7' }), withSession)?.body).toEqual({});
  });

  it('sends the session commands as before, and none without a session', () => {
    const load = fields({ queueBaseUrl: ' http://q/ ', httpAuthorization: '', itemId: 't2', positionMillis: '1000' });
    expect(requestOf('loadCloudQueue', load, withSession)).toEqual({
      method: 'POST',
      path: '/api/v1/playbackSessions/session-1/playbackSession:1/loadCloudQueue',
      body: { queueBaseUrl: 'http://q/', itemId: 't2', positionMillis: 1_000, playOnCompletion: true },
    });
    expect(requestOf('skipToItem', fields({ itemId: 't4' }), withSession)?.body).toEqual({
      itemId: 't4',
      playOnCompletion: true,
    });
    expect(requestOf('refreshCloudQueue', fields({}), withSession)).toEqual({
      method: 'POST',
      path: '/api/v1/playbackSessions/session-1/playbackSession:1/refreshCloudQueue',
    });
    expect(requestOf('suspend', fields({}), noSession)).toBeNull();
  });
});

describe('any request, filled from an example', () => {
  const example = {
    id: 'createSession',
    label: 'Create a playback session',
    method: 'POST' as const,
    path: '/api/v1/groups/group-kitchen/playbackSession',
    body: { appId: 'com.example.app', appContext: 'console-example' },
  };
  const target = { groupId: 'group-kitchen', sessionId: null };

  it('takes the example as method, path and a JSON body, sent as typed and needing no session', () => {
    const fields = exampleFields(example, NEW_DRAFT.fields);
    expect(fields).toMatchObject({ method: 'POST', path: example.path, body: JSON.stringify(example.body, null, 2) });
    expect(requestOf('request', fields, target)).toEqual({ method: 'POST', path: example.path, body: example.body });
    expect(
      requestOf(
        'request',
        exampleFields(
          { id: 'households', label: 'List households', method: 'GET', path: '/api/v1/households' },
          fields,
        ),
        target,
      ),
    ).toEqual({ method: 'GET', path: '/api/v1/households' });
  });

  it('sends nothing while the path is no control API path or the body no JSON object, and says which', () => {
    const fields = exampleFields(example, NEW_DRAFT.fields);
    expect(requestOf('request', { ...fields, path: '/admin/api/faults' }, target)).toBeNull();
    expect(requestProblem({ ...fields, path: '/admin/api/faults' })).toBe('The path starts with /api/v1/');
    expect(requestOf('request', { ...fields, body: '{"appId": ' }, target)).toBeNull();
    expect(requestOf('request', { ...fields, body: '[1]' }, target)).toBeNull();
    expect(requestProblem({ ...fields, body: '[1]' })).toBe('The body is not a JSON object');
    expect(requestProblem(fields)).toBeNull();
  });

  it('copies as curl to the control service, the token and the queue token masked', () => {
    const request = requestOf(
      'loadCloudQueue',
      {
        ...NEW_DRAFT.fields,
        queueBaseUrl: 'http://127.0.0.1:3/queues/q/v2.3/',
        httpAuthorization: 'Bearer queuetoken123',
      },
      { groupId: 'g', sessionId: 's1' },
    )!;
    const curl = curlOf(copyableOf('http://127.0.0.1:47102', request, 'abcd1234'));
    expect(curl).toContain(
      "curl -X 'POST' 'http://127.0.0.1:47102/api/v1/playbackSessions/s1/playbackSession:1/loadCloudQueue'",
    );
    expect(curl).toContain("-H 'authorization: Bearer abcd•••'");
    expect(curl).toContain('"httpAuthorization":"Bear•••"');
    expect(curl).not.toContain('queuetoken123');
  });
});
