/**
 * Grants and tokens of an integration with their expiry on the engine clock: the status is worked
 * out from engine time as the clock moves, so advancing it by 24 h visibly expires access tokens.
 */
import { useMutation } from '@tanstack/react-query';
import { tokenStatus, type GrantView, type TokenView } from '@engine-api/oauth-types';
import { StatusBadge } from './StatusBadge';
import { DataTable } from '../../components/DataTable';
import { useApi } from '../../api/context';
import { useGrants } from '../../queries/oauth';
import { formatEngineMoment } from '../../format/engine-time';
import { useEngineDay, useEngineNow } from '../../stores/clock';
import { FormError } from './fields';
import { useSelectFlow } from './inspector-store';
import { expiryText } from '../../format/span';
import styles from './GrantsTable.module.css';

export function GrantsTable({ integrationId }: { integrationId: string }) {
  const { data: grants, error } = useGrants(integrationId);
  const now = useEngineNow();
  if (error) return <FormError error={error} />;
  if (!grants) return <p className="muted">Loading grants…</p>;
  if (grants.length === 0) return <p className="muted">No grants yet: run a flow to issue a code and tokens.</p>;
  return (
    <DataTable className={styles.grants} aria-label="Grants and tokens">
      <thead>
        <tr>
          <th scope="col">Issued</th>
          <th scope="col">What</th>
          <th scope="col" title="On the engine clock">
            Expiry
          </th>
          <th scope="col">Status</th>
          <th scope="col">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      {grants.map((grant) => (
        <GrantRows key={grant.id} grant={grant} now={now} />
      ))}
    </DataTable>
  );
}

function GrantRows({ grant, now }: { grant: GrantView; now: number | null }) {
  const today = useEngineDay();
  const api = useApi();
  const select = useSelectFlow();
  const revokeGrant = useMutation({ mutationFn: () => api.call('grants.revoke', { id: grant.id }) });
  const code = grant.code;
  const codeState = !code
    ? ''
    : code.usedAt !== null
      ? 'exchanged'
      : now !== null && code.expiresAt <= now
        ? 'expired unused'
        : 'not exchanged yet';
  // A grant whose code ran out unused can never give a token: not active, though never revoked.
  const status =
    grant.revokedAt !== null
      ? 'revoked'
      : codeState === 'expired unused' && grant.tokens.length === 0
        ? 'expired'
        : 'active';
  return (
    <tbody aria-label={`Grant ${grant.id}`} data-revoked={grant.revokedAt !== null}>
      <tr className={styles.grantRow}>
        <td>{formatEngineMoment(grant.createdAt, today)}</td>
        <td>
          <strong>Grant</strong> for {grant.username} · code {codeState}
          {code?.pkce ? ' · PKCE' : ''}
        </td>
        <td />
        <td>
          <StatusBadge status={status}>{status}</StatusBadge>
          <RevokedReason reason={grant.revokedReason} />
        </td>
        <td className={styles.actions}>
          {grant.flowId && (
            <button type="button" onClick={() => select(grant.flowId)}>
              Show flow
            </button>
          )}
          <button
            type="button"
            disabled={status !== 'active' || revokeGrant.isPending}
            onClick={() => revokeGrant.mutate()}
          >
            Revoke grant
          </button>
        </td>
      </tr>
      {grant.tokens.map((token) => (
        <TokenRow key={token.id} token={token} now={now} />
      ))}
    </tbody>
  );
}

function TokenRow({ token, now }: { token: TokenView; now: number | null }) {
  const today = useEngineDay();
  const api = useApi();
  const expire = useMutation({ mutationFn: () => api.call('tokens.expire', { id: token.id }) });
  const revoke = useMutation({ mutationFn: () => api.call('tokens.revoke', { id: token.id }) });
  const status = now === null ? token.status : tokenStatus(token, now);
  const label = `${token.kind} token ${token.hint}…`;
  return (
    <tr className={styles.tokenRow} aria-label={label} data-status={status}>
      <td>{formatEngineMoment(token.issuedAt, today)}</td>
      <td>
        {token.kind === 'access' ? 'Access' : 'Refresh'} token <code>{token.hint}…</code>
      </td>
      <td>{status === 'revoked' || status === 'rotated' ? '—' : expiryText(token.expiresAt, now)}</td>
      <td>
        <StatusBadge status={status}>{status}</StatusBadge>
        <RevokedReason reason={token.revokedReason} />
      </td>
      <td className={styles.actions}>
        <button
          type="button"
          aria-label={`Expire now: ${label}`}
          disabled={status !== 'active' || expire.isPending}
          onClick={() => expire.mutate()}
        >
          Expire now
        </button>
        <button
          type="button"
          aria-label={`Revoke ${label}`}
          disabled={status === 'revoked' || status === 'rotated' || revoke.isPending}
          onClick={() => revoke.mutate()}
        >
          Revoke
        </button>
      </td>
    </tr>
  );
}

/** Why a grant or token was revoked, in words beside its badge: "authorization code used twice". */
function RevokedReason({ reason }: { reason: string | null }) {
  return reason ? <span className={`${styles.revokedReason} muted`}>{reason}</span> : null;
}
