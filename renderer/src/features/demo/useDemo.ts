/**
 * The guided demo's state, read from the engine: each step ticks when the engine confirms it
 * (the token held, the player playing the demo queue, another item playing, the player paused,
 * reports received, a 503 retried), never at the click. Ticks are sticky (stores/demo.ts).
 * Each step's button first takes the presenter to the area the step is about (DEMO_AREAS), so
 * the partner watches it happen there; the sign-in runs in a popup that closes once it is done.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useApi } from '../../api/context';
import { useControlSenders } from '../../queries/control';
import { groupCoordinators, useEngineState } from '../../queries/engine-state';
import { useIntegrations } from '../../queries/oauth';
import { usePlayerDetail } from '../../queries/players';
import { useQueueList } from '../../queries/queues';
import { startFlow } from '../../queries/start-flow';
import { useEngineNow } from '../../stores/clock';
import { DEMO_STEPS, useDemoStore, type DemoStep } from '../../stores/demo';
import type { AreaId } from '../../router/areas';
import { bringRuleClear } from './clear-of-panel';
import { DEMO_QUEUE_NAME, demoQueue, injectAndTrigger, playQueue, sendAs } from './demo-api';
import { closeSignInWindow, holdSignInWindow, popupFeatures } from './demo-popup';

/**
 * The area each step is about: the sign-in's flow timeline, then the Player page, where the
 * player's state, its requests, the reports it posted and its retries show as they happen.
 */
export const DEMO_AREAS: Record<DemoStep, AreaId> = {
  signIn: 'oauth',
  play: 'player',
  skip: 'player',
  pause: 'player',
  reports: 'player',
  retries: 'player',
};

/** How often the server's reports and the player's retries are read while the demo waits for them. */
const POLL_MS = 1_000;

export function useDemo() {
  const api = useApi();
  const navigate = useNavigate();
  const { done, marks, tick, mark } = useDemoStore();
  const sampleId = useIntegrations().data?.find((i) => i.sample)?.id;
  // The panel is the one place waiting for a token issued in another tab: it asks again until it sees one.
  const sender = useControlSenders({ poll: !done.signIn }).data?.find((s) => s.integrationId === sampleId);
  const coordinator = groupCoordinators(useEngineState().data).find((c) => c.player !== undefined);
  const groupId = coordinator?.group.id ?? null;
  const playerId = coordinator?.player?.id ?? null;
  const detail = usePlayerDetail(playerId).data;
  const queues = useQueueList();
  const queue = queues.data?.find((q) => q.name === DEMO_QUEUE_NAME);
  const now = useEngineNow();

  const reports = useQuery({
    queryKey: ['demo', 'reports', queue?.id ?? ''],
    queryFn: () => api.call('queues.reports', { id: queue!.id, limit: 1_000 }),
    enabled: Boolean(marks.reportsAsked && queue),
    refetchInterval: done.reports ? false : POLL_MS,
  });
  const failed = useQuery({
    queryKey: ['demo', 'retries', marks.injectedAt ?? 0],
    queryFn: () =>
      api.call('traffic.list', { target: 'player', status: '503', since: marks.injectedAt!, limit: 1_000 }),
    enabled: marks.injectedAt !== undefined,
    refetchInterval: POLL_MS,
  });
  const fromPlayer = failed.data?.filter((e) => e.playerId === playerId) ?? [];
  const retriesSent = fromPlayer.filter((e) => (e.retry ?? 0) > 0).length;
  const waiting = detail?.retrying.filter((r) => r.failure.status === 503) ?? [];

  // Playing, not buffering: a track skipped or paused before it played has nothing to report, and
  // step 5 waits for the reports of exactly those two.
  const playing = detail?.playbackState === 'PLAYBACK_STATE_PLAYING';
  const confirmed: Record<DemoStep, boolean> = {
    signIn: sender !== undefined,
    play: Boolean(queue && detail?.queueBaseUrl === queue.queueBaseUrl && playing),
    skip: marks.skipFrom !== undefined && detail !== undefined && detail.itemId !== marks.skipFrom && playing,
    pause: Boolean(marks.pauseAsked && detail?.playbackState === 'PLAYBACK_STATE_PAUSED'),
    reports: (reports.data?.length ?? 0) > 0,
    retries: marks.injectedAt !== undefined && (fromPlayer.length > 0 || waiting.length > 0),
  };
  const confirmedKey = JSON.stringify(confirmed);
  useEffect(() => {
    const ok = JSON.parse(confirmedKey) as Record<DemoStep, boolean>;
    for (const step of DEMO_STEPS) if (ok[step]) tick(step);
  }, [confirmedKey, tick]);
  // The redirect came back and the token is held: the sign-in window has done its part.
  useEffect(() => {
    if (done.signIn) closeSignInWindow();
  }, [done.signIn]);

  /** Takes the presenter to the step's area: the flow being signed in, or the demo's player. */
  const goTo = (step: DemoStep, flowId?: string) => {
    if (DEMO_AREAS[step] === 'oauth') void navigate({ to: '/oauth', search: flowId ? { flow: flowId } : {} });
    else void navigate({ to: '/player', search: playerId ? { player: playerId } : {} });
  };

  const grant = sender?.grantId ?? null;
  const target = groupId ? { groupId, sessionId: detail?.sessionId ?? null } : null;
  const run = useMutation({
    mutationFn: async (step: DemoStep) => {
      goTo(step);
      switch (step) {
        case 'signIn': {
          const started = await startFlow(
            api,
            { kind: 'sample' },
            { popup: popupFeatures(), onWindow: holdSignInWindow },
          );
          goTo(step, started.flowId);
          return started;
        }
        case 'play':
          return playQueue(api, need(grant), need(target), await demoQueue(api, (await queues.refetch()).data ?? []));
        case 'skip':
          mark({ skipFrom: detail?.itemId ?? null });
          return sendAs(
            api,
            need(grant),
            'POST',
            `/api/v1/groups/${encodeURIComponent(need(groupId))}/playback:1/skipToNextTrack`,
          );
        case 'pause':
          mark({ pauseAsked: true });
          return sendAs(
            api,
            need(grant),
            'POST',
            `/api/v1/groups/${encodeURIComponent(need(groupId))}/playback:1/pause`,
          );
        case 'reports':
          mark({ reportsAsked: true });
          return null;
        case 'retries': {
          mark({ injectedAt: now ?? undefined });
          const ruleId = await injectAndTrigger(api, need(playerId));
          // Where the checklist floats over the area, the rule comes into view above it (audit-ui W5).
          bringRuleClear(ruleId);
          return mark({ ruleId });
        }
      }
    },
  });
  const removeFault = useMutation({
    mutationFn: (id: string) => api.call('faults.remove', { id }),
    onSuccess: () => mark({ ruleId: undefined }),
  });

  return {
    done,
    marks,
    run,
    removeFault,
    sender,
    group: coordinator?.group,
    detail,
    queue,
    reports: reports.data,
    retriesSent,
    failures: fromPlayer.length,
    waiting,
  };
}

/** What a step needs from the one before it (its button is off until then). */
function need<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error('do the step before this one first');
  return value;
}
