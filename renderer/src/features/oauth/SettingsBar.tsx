/** Auto-approve and production parity (docs/contract/console.md §7 `PATCH /settings`), and the sample flow's one click. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { LoginSettings } from '@engine-api/oauth-types';
import { useApi } from '../../api/context';
import { oauthKeys, useLoginSettings } from '../../queries/oauth';
import { StartedNotice } from './StartedNotice';
import { useStartFlow } from './useStartFlow';

const TOGGLES: { key: keyof LoginSettings; label: string; hint: string }[] = [
  { key: 'autoApprove', label: 'Auto-approve', hint: 'Skip the sign-in and consent pages (scripted runs)' },
  { key: 'productionParity', label: 'Production parity', hint: 'Reject loopback redirect URLs, as production does' },
];

export function SettingsBar() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { data: settings } = useLoginSettings();
  // The switch moves at the click (the query cache would show it a tick later) and shows the
  // engine's answer once it arrives.
  const [pending, setPending] = useState<Partial<LoginSettings>>({});
  const update = useMutation({
    mutationKey: oauthKeys.settings,
    mutationFn: (changes: Partial<LoginSettings>) => api.call('settings.update', changes),
    // A fetch still on its way would answer the settings from before this change.
    onMutate: () => void queryClient.cancelQueries({ queryKey: oauthKeys.settings }, { revert: false }),
    onSuccess: (next) => queryClient.setQueryData(oauthKeys.settings, next),
    onSettled: (_next, _error, changes) =>
      setPending((current) => Object.fromEntries(Object.entries(current).filter(([key]) => !(key in changes)))),
  });
  const sample = useStartFlow();
  // The sample's redirect URL is the console's own loopback callback, which parity refuses.
  const parity = pending.productionParity ?? settings?.productionParity ?? false;

  return (
    <div className="oauth-toolbar">
      <div className="oauth-toggles" role="group" aria-label="Login service settings">
        {TOGGLES.map(({ key, label, hint }) => (
          <label key={key} className="switch" title={hint}>
            <input
              type="checkbox"
              role="switch"
              checked={pending[key] ?? settings?.[key] ?? false}
              disabled={!settings}
              onChange={(event) => {
                const change = { [key]: event.target.checked };
                setPending((current) => ({ ...current, ...change }));
                update.mutate(change);
              }}
            />
            <span>{label}</span>
          </label>
        ))}
        {update.isError && <span role="alert" className="form-error">{update.error.message}</span>}
      </div>
      <div className="oauth-sample">
        <button
          type="button"
          className="primary"
          disabled={sample.isPending || parity}
          aria-describedby={parity ? 'sample-parity' : undefined}
          onClick={() => sample.mutate({ kind: 'sample' })}
          title="authorize → sign-in → consent → code → token → list households"
        >
          {sample.isPending ? 'Starting…' : 'Run sample flow'}
        </button>
        {parity && (
          <span id="sample-parity" className="muted">
            Off under production parity: the sample signs in at the console&rsquo;s loopback callback, which parity refuses.
          </span>
        )}
        {sample.isError && <span role="alert" className="form-error">{sample.error.message}</span>}
        {sample.data && <StartedNotice started={sample.data} />}
      </div>
    </div>
  );
}
