/**
 * Auto-approve, production parity and redirect capture (docs/contract/console.md §7 `PATCH
 * /settings`, docs/login-service.md), and the sample flow's one click.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { LoginSettings } from '@engine-api/oauth-types';
import { useApi } from '../../api/context';
import { oauthKeys, useLoginSettings } from '../../queries/oauth';
import { usePaletteActions } from '../../stores/palette-actions';
import { StartedNotice } from './StartedNotice';
import { useStartFlow } from './useStartFlow';
import styles from './SettingsBar.module.css';

const TOGGLES: { key: keyof LoginSettings; label: string; hint: string }[] = [
  { key: 'autoApprove', label: 'Auto-approve', hint: 'Skip the sign-in and consent pages (scripted runs)' },
  { key: 'productionParity', label: 'Production parity', hint: 'Reject loopback redirect URLs, as production does' },
  {
    key: 'captureRedirects',
    label: 'Capture redirects',
    hint: 'Keep the code here when a redirect URL is not on this machine (https://myapp.example.com/cb): your browser stays on a login service page and the code waits in the flow inspector for one reveal. Off: the browser goes to the redirect URL with the code.',
  },
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
  usePaletteActions({ 'oauth.sampleFlow': parity ? undefined : () => sample.mutateAsync({ kind: 'sample' }) });

  return (
    <div className={styles.oauthToolbar}>
      <div className={styles.oauthToggles} role="group" aria-label="Login service settings">
        {TOGGLES.map(({ key, label, hint }) => (
          <label key={key} className={styles.switch} title={hint}>
            <input
              type="checkbox"
              role="switch"
              aria-describedby={key === 'captureRedirects' ? 'capture-hint' : undefined}
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
        {update.isError && (
          <span role="alert" className={styles.formError}>
            {update.error.message}
          </span>
        )}
        <p id="capture-hint" className={`muted ${styles.captureHint}`}>
          {(pending.captureRedirects ?? settings?.captureRedirects ?? false)
            ? 'Capture redirects: a code for a redirect URL off this machine stays here, shown once in the flow inspector; it never leaves the machine.'
            : 'Capture redirects is off: the browser takes each code to its redirect URL, wherever that is.'}
        </p>
      </div>
      <div className={styles.oauthSample}>
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
            Off under production parity: the sample signs in at the console&rsquo;s loopback callback, which parity
            refuses.
          </span>
        )}
        {sample.isError && (
          <span role="alert" className={styles.formError}>
            {sample.error.message}
          </span>
        )}
        {sample.data && <StartedNotice started={sample.data} />}
      </div>
    </div>
  );
}
