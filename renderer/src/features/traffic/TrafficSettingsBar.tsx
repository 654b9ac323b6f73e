/**
 * The log's own settings: capture on or off, the retention cap (the oldest entries go beyond it),
 * and "Clear log" (pressed twice: the log can hold 100,000 entries). A cap the engine refuses says
 * why and keeps the old one.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { TrafficSettings } from '../../../../main/engine/api/traffic-types';
import { useApi } from '../../api/context';
import { IGNORE_HELD_KEY, useConfirmStep } from '../../components/useConfirmStep';
import { trafficKeys, useTrafficSettings } from '../../queries/traffic';

const MIN_RETENTION = 100;
const MAX_RETENTION = 10_000_000;

export function TrafficSettingsBar() {
  const api = useApi();
  const confirmClear = useConfirmStep();
  const queryClient = useQueryClient();
  const { data: settings } = useTrafficSettings();
  const [retention, setRetention] = useState<string | null>(null);
  const configure = useMutation({
    mutationFn: (change: Partial<TrafficSettings>) => api.call('traffic.configure', change),
    onSuccess: (next) => {
      queryClient.setQueryData(trafficKeys.settings, next);
      setRetention(null);
    },
  });
  const clear = useMutation({
    mutationFn: () => api.call('traffic.clear', {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: trafficKeys.all }),
  });

  const typed = retention === null ? null : Number(retention);
  const retentionOk = typed === null || (Number.isInteger(typed) && typed >= MIN_RETENTION && typed <= MAX_RETENTION);
  const applyRetention = () => {
    if (typed !== null && retentionOk && typed !== settings?.retention) configure.mutate({ retention: typed });
    else if (typed === settings?.retention) setRetention(null);
  };

  return (
    <div className="traffic-settings" role="group" aria-label="Log settings">
      <label className="toggle" data-on={settings?.capture ?? undefined}>
        <input type="checkbox" role="switch" checked={settings?.capture ?? true} disabled={!settings} onChange={(event) => configure.mutate({ capture: event.target.checked })} />
        Capture
      </label>
      <label>
        Keep
        <input
          type="number"
          aria-label="Retention cap"
          min={MIN_RETENTION}
          max={MAX_RETENTION}
          step={1000}
          value={retention ?? settings?.retention ?? ''}
          aria-invalid={!retentionOk || undefined}
          title={`Entries kept (${MIN_RETENTION.toLocaleString('en-US')}–${MAX_RETENTION.toLocaleString('en-US')}); the oldest go first`}
          onChange={(event) => setRetention(event.target.value)}
          onBlur={applyRetention}
          onKeyDown={(event) => {
            if (event.key === 'Enter') applyRetention();
            if (event.key === 'Escape') setRetention(null);
          }}
        />
        entries
      </label>
      <button
        type="button"
        className="danger"
        disabled={clear.isPending}
        title="Deletes every entry of the log (press twice)"
        {...IGNORE_HELD_KEY}
        onClick={() => confirmClear.press(() => clear.mutate())}
      >
        {confirmClear.armed ? 'Confirm: delete every entry' : 'Clear log'}
      </button>
      {!retentionOk && (
        <span className="error" role="alert">
          keep {MIN_RETENTION.toLocaleString('en-US')} to {MAX_RETENTION.toLocaleString('en-US')} entries
        </span>
      )}
      {(configure.error ?? clear.error) && (
        <span className="error" role="alert">
          {(configure.error ?? clear.error)!.message}
        </span>
      )}
    </div>
  );
}
