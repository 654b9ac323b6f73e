/** A client secret, shown this once (it is stored hashed): copy it now. */
import { CopyButton } from '../../components/CopyButton';
import styles from './SecretCallout.module.css';

export interface ShownSecret {
  keyName: string;
  clientId: string;
  clientSecret: string;
}

export function SecretCallout({ secret, onDone }: { secret: ShownSecret; onDone(): void }) {
  return (
    <div className={styles.secretCallout} role="region" aria-label="New client secret">
      <p>
        <strong>Client secret of key “{secret.keyName}”</strong>: shown this once, stored only as a hash. Copy it now.
      </p>
      <div className={styles.secretRow}>
        <code data-testid="client-secret">{secret.clientSecret}</code>
        <CopyButton value={secret.clientSecret} label="Copy client secret" />
      </div>
      <button type="button" onClick={onDone}>
        Done
      </button>
    </div>
  );
}
