/**
 * Connects pushed engine events to the renderer's stores and query cache. Mounted once, at the
 * root. After a reconnect everything is fetched again, since events may have been missed.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useApi } from '../api/context';
import { wireOAuthEvents } from '../queries/oauth';
import { wireQueueEvents } from '../features/queues/queue-events';
import { useGenerationStore } from '../features/queues/generation-store';
import { engineStateKey } from '../queries/engine-state';
import { wireFaultEvents } from '../queries/faults';
import { usePlayerEventWiring } from '../queries/players';
import { readAgain } from '../queries/read-again';
import { useClockStore } from './clock';
import { useConnectionStore } from './connection';
import { wirePreferences } from './preferences';

export function useEngineWiring(): void {
  const api = useApi();
  const queryClient = useQueryClient();
  usePlayerEventWiring();
  useEffect(() => {
    const setClock = useClockStore.getState().setClock;
    const offEvents = api.on('clock.changed', setClock);
    const offOAuth = wireOAuthEvents(api, queryClient);
    const offHousehold = api.on('household.changed', () => void readAgain(queryClient, { queryKey: engineStateKey }));
    const offWarnings = api.on('engine.warning', () => void readAgain(queryClient, { queryKey: engineStateKey }));
    const offQueues = wireQueueEvents(api, queryClient);
    const offFaults = wireFaultEvents(api, queryClient);
    const preferences = wirePreferences(api);
    const offConnection = api.onConnection((state) => {
      useConnectionStore.getState().setState(state);
      if (state === 'open') {
        void api.call('clock.get', {}).then(setClock, () => undefined);
        preferences.connected();
        useGenerationStore.getState().forgetRunning();
        // Events were missed while it was down: everything is read again, first reads too.
        void readAgain(queryClient, {});
      }
    });
    return () => {
      offEvents();
      offOAuth();
      offHousehold();
      offWarnings();
      offQueues();
      offFaults();
      offConnection();
      preferences.stop();
    };
  }, [api, queryClient]);
}
