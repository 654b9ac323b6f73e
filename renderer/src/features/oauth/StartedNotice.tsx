/** What happened when a flow started: where it opened, and the URL to open by hand if a tab was blocked. */
import { CopyButton } from '../../components/CopyButton';
import type { StartOutcome } from './inspector-store';
import styles from './StartedNotice.module.css';

export function StartedNotice({ started }: { started: StartOutcome }) {
  return (
    <div className={styles.startedNotice} role="status">
      {started.openedBy === 'host'
        ? 'Opened in the OAuth window.'
        : started.blocked
          ? 'The browser blocked the new tab; open the authorize URL yourself:'
          : 'Opened in a new tab.'}
      {started.blocked && (
        <a href={started.authorizeUrl} target="_blank" rel="noopener noreferrer">
          authorize URL
        </a>
      )}
      <StartedValues started={started} urlNamed={started.blocked} />
    </div>
  );
}

/**
 * What a flow started here hands on: its authorize URL, and the code_verifier its token request
 * needs. The URL's copy button is named on screen too (`urlNamed`: a link beside it names it
 * already): alone, a sample flow's "Started here:" showed a copy icon and nothing to say of what.
 */
export function StartedValues({ started, urlNamed = false }: { started: StartOutcome; urlNamed?: boolean }) {
  return (
    <>
      {!urlNamed && <span className="muted">authorize URL</span>}{' '}
      <CopyButton value={started.authorizeUrl} label="Copy authorize URL" />
      {started.codeVerifier && (
        <span className="muted">
          PKCE code_verifier <code>{started.codeVerifier}</code>{' '}
          <CopyButton value={started.codeVerifier} label="Copy code verifier" />
        </span>
      )}
    </>
  );
}
