/**
 * A flow whose redirect the console captured (docs/login-service.md, "Redirect capture"): the code
 * never left this machine, and the console holds it for one reveal. Revealed, it shows here with
 * the token request that carries it, as curl, until the window closes; the engine forgets it at
 * the reveal, so a second reveal (here after a reload, or over the admin API) is refused.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CapturedCodeView } from '@engine-api/oauth-types';
import { useApi } from '../../api/context';
import { CopyButton } from '../../components/CopyButton';
import { formatEngineMoment } from '../../format/engine-time';
import { oauthKeys } from '../../queries/oauth';
import { useEngineDay } from '../../stores/clock';
import { useInspectorStore } from './inspector-store';
import styles from './CapturedCode.module.css';

export function CapturedCode({ flowId, captured }: { flowId: string; captured: CapturedCodeView }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const today = useEngineDay();
  const revealed = useInspectorStore((s) => s.revealed[flowId]);
  const keep = useInspectorStore((s) => s.keepRevealed);
  const reveal = useMutation({
    mutationFn: () => api.call('oauth.revealCode', { flowId }),
    onSuccess: (code) => keep(code),
    onSettled: () => queryClient.invalidateQueries({ queryKey: oauthKeys.flow(flowId) }),
  });
  const where = captured.by === 'window' ? 'The OAuth window stopped at' : 'The login service kept the redirect to';
  return (
    <div className={styles.capturedCode} role="group" aria-label="Captured redirect">
      <p>
        <strong>Redirect captured — the code never left this machine.</strong> {where}{' '}
        <code>{captured.redirectUri}</code>.
      </p>
      {revealed ? (
        <>
          <p>
            Code <code data-testid="revealed-code">{revealed.code}</code>{' '}
            <CopyButton value={revealed.code} label="Copy code" />{' '}
            <span className="muted">
              shown once: the console no longer holds it. Trade it before{' '}
              {formatEngineMoment(revealed.expiresAt, today)}.
            </span>
          </p>
          <p>
            The token request with the code, as curl for a POSIX shell (set CLIENT_SECRET to the key&rsquo;s secret):{' '}
            <CopyButton value={revealed.curl} label="Copy token request with the code" />
          </p>
          <pre data-testid="revealed-curl">{revealed.curl}</pre>
        </>
      ) : captured.state === 'revealable' ? (
        <p>
          <button type="button" className="primary" onClick={() => reveal.mutate()} disabled={reveal.isPending}>
            Reveal code
          </button>{' '}
          <span className="muted">
            once, with the token request as curl; the code expires at {formatEngineMoment(captured.expiresAt, today)}.
          </span>
        </p>
      ) : captured.state === 'revealed' ? (
        <p className="muted">
          The code was revealed already
          {captured.revealedAt !== null ? ` at ${formatEngineMoment(captured.revealedAt, today)}` : ''}: the console
          shows a captured code once. Run the flow again for a new one.
        </p>
      ) : (
        <p className="muted">
          The code expired before it was revealed (codes live 600 s). Run the flow again for a new one.
        </p>
      )}
      {reveal.isError && (
        <p role="alert" className={styles.formError}>
          {reveal.error.message}
        </p>
      )}
    </div>
  );
}
