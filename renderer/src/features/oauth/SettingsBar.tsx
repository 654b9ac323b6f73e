/** Auto-approve and production parity (CONTRACT §7 `PATCH /settings`), and the sample flow's one click. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginSettings } from '../../../../main/engine/api/oauth-types';
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
  // Optimistic: the switch moves at the click, and moves back if the engine refuses.
  const update = useMutation({
    mutationFn: (changes: Partial<LoginSettings>) => api.call('settings.update', changes),
    onMutate: (changes) => {
      const before = queryClient.getQueryData<LoginSettings>(oauthKeys.settings);
      if (before) queryClient.setQueryData(oauthKeys.settings, { ...before, ...changes });
      return before;
    },
    onError: (_error, _changes, before) => queryClient.setQueryData(oauthKeys.settings, before),
    onSuccess: (next) => queryClient.setQueryData(oauthKeys.settings, next),
  });
  const sample = useStartFlow();

  return (
    <div className="oauth-toolbar">
      <div className="oauth-toggles" role="group" aria-label="Login service settings">
        {TOGGLES.map(({ key, label, hint }) => (
          <label key={key} className="switch" title={hint}>
            <input
              type="checkbox"
              role="switch"
              checked={settings?.[key] ?? false}
              disabled={!settings}
              onChange={(event) => update.mutate({ [key]: event.target.checked })}
            />
            <span>{label}</span>
          </label>
        ))}
        {update.isError && <span role="alert" className="form-error">{update.error.message}</span>}
      </div>
      <div className="oauth-sample">
        <button type="button" className="primary" disabled={sample.isPending} onClick={() => sample.mutate({ kind: 'sample' })} title="authorize → sign-in → consent → code → token → list households">
          {sample.isPending ? 'Starting…' : 'Run sample flow'}
        </button>
        {sample.isError && <span role="alert" className="form-error">{sample.error.message}</span>}
        {sample.data && <StartedNotice started={sample.data} />}
      </div>
    </div>
  );
}
