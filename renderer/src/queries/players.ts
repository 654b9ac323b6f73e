/**
 * The simulated players: list, detail, transitions and the transition table, kept live by the
 * engine's player events (the cache is updated in place, not refetched).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { PlayerDetail, PlayerTransition } from '@engine-api/player-types';
import { useApi } from '../api/context';
import { engineStateKey } from './engine-state';
import { applyPushed } from './pushed';
import { readAgain } from './read-again';

export const playerKeys = {
  detail: (id: string) => ['players', id, 'detail'] as const,
  transitions: (id: string) => ['players', id, 'transitions'] as const,
  table: ['players', 'table'] as const,
};

const TIMELINE_LENGTH = 300;

export function usePlayerDetail(id: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: playerKeys.detail(id ?? ''),
    queryFn: () => api.call('players.detail', { id: id! }),
    enabled: id !== null,
  });
}

export function usePlayerTransitions(id: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: playerKeys.transitions(id ?? ''),
    queryFn: () => api.call('players.transitions', { id: id!, limit: TIMELINE_LENGTH }),
    enabled: id !== null,
  });
}

export function useTransitionTable() {
  const api = useApi();
  return useQuery({ queryKey: playerKeys.table, queryFn: () => api.call('players.table', {}), staleTime: Infinity });
}

/** Pushes player events into the cache; mounted once by the engine wiring. */
export function usePlayerEventWiring(): void {
  const api = useApi();
  const queryClient = useQueryClient();
  useEffect(() => {
    const offChanged = api.on('player.changed', (detail: PlayerDetail) => {
      applyPushed(queryClient, playerKeys.detail(detail.id), () => detail);
      void readAgain(queryClient, { queryKey: engineStateKey });
    });
    const offTransition = api.on('player.transition', (transition: PlayerTransition) => {
      applyPushed<PlayerTransition[]>(queryClient, playerKeys.transitions(transition.playerId), (list) =>
        list ? [...list, transition].slice(-TIMELINE_LENGTH) : list,
      );
    });
    return () => {
      offChanged();
      offTransition();
    };
  }, [api, queryClient]);
}
