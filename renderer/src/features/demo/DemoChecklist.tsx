/**
 * The demo's steps, in order: each one button, enabled once the step before it ticked, and a line
 * saying what the engine confirmed (the integration, the queue and item playing, the reports
 * received, the retries) in the words a presenter reads out.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { DEMO_STEPS, useDemoStore, type DemoStep } from '../../stores/demo';
import { useDemo } from './useDemo';
import styles from './demo.module.css';

const TITLES: Record<DemoStep, string> = {
  signIn: 'Sign in as the integration',
  play: 'Play a sample queue on a player',
  skip: 'Skip to the next track',
  pause: 'Pause',
  reports: 'See the reports reach the server',
  retries: 'Inject a 503 and watch the retries',
};

/** A step done and talked about no more, as a chip: the panel then covers less of the area (audit-ui W5). */
const DONE: Record<DemoStep, string> = {
  signIn: 'Sign-in',
  play: 'Play',
  skip: 'Skip',
  pause: 'Pause',
  reports: 'Reports',
  retries: 'Retries',
};

const BUTTONS: Record<DemoStep, string> = {
  signIn: 'Sign in',
  play: 'Play',
  skip: 'Skip',
  pause: 'Pause',
  reports: 'Show reports',
  retries: 'Inject 503',
};

export function DemoChecklist() {
  const demo = useDemo();
  const reset = useDemoStore((s) => s.reset);
  const { done, run } = demo;
  const next = DEMO_STEPS.find((step) => !done[step]);
  // A step's button goes once it ticks: the focus follows to the next step's (or Start over), not
  // to the page's start, forty Tabs away (audit).
  const buttons = useRef(new Map<DemoStep, HTMLButtonElement | null>());
  const startOver = useRef<HTMLButtonElement | null>(null);
  const [followFocus, setFollowFocus] = useState(false);
  useEffect(() => {
    if (!followFocus || run.isPending) return;
    (next ? buttons.current.get(next) : startOver.current)?.focus();
  }, [followFocus, next, run.isPending]);
  // Start over takes back the 503 rule the last step left live, or the next Play meets it.
  const begin = () => {
    const ruleId = demo.marks.ruleId;
    reset();
    if (ruleId) demo.removeFault.mutate(ruleId);
  };
  // The step just done and the one to do say what they are about; the others are their titles,
  // so the panel stays small beside the area it talks about.
  const lastDone = DEMO_STEPS.findLast((step) => done[step]);
  const group = demo.group?.name ?? 'the first player';
  const what: Record<DemoStep, ReactNode> = {
    signIn: done.signIn ? (
      <>
        Signed in: the console holds {demo.sender?.integrationName ?? 'the integration'}&rsquo;s token{' '}
        <code>{demo.sender?.tokenHint}…</code>; every call below is sent as it.
      </>
    ) : (
      'The sample integration’s OAuth flow, in a sign-in window that closes by itself: sign in as demo / demo and allow.'
    ),
    play: done.play ? (
      <>
        {group} plays “{demo.queue?.name}”{demo.detail?.track?.name ? `: ${demo.detail.track.name}` : ''}.
      </>
    ) : (
      `Makes a session on ${group} and loads a sample queue with loadCloudQueue, as the integration.`
    ),
    skip: done.skip
      ? `Now playing ${demo.detail?.track?.name ?? demo.detail?.itemId ?? 'the next track'}.`
      : 'skipToNextTrack, as the integration.',
    pause: done.pause ? `${group} is paused.` : 'pause, as the integration.',
    reports: done.reports ? (
      <>
        The server received <strong data-testid="demo-report-count">{demo.reports?.length ?? 0}</strong> report
        {demo.reports?.length === 1 ? '' : 's'} for “{demo.queue?.name}”.{' '}
        {demo.queue && (
          <Link to="/queues" search={{ queue: demo.queue.id }}>
            Open the queue
          </Link>
        )}
      </>
    ) : demo.marks.reportsAsked ? (
      'Waiting for the player’s reports…'
    ) : (
      'The timePlayed reports the player posted to the cloud queue server.'
    ),
    retries: done.retries ? (
      <>
        503 answered <strong data-testid="demo-failure-count">{demo.failures}</strong> time
        {demo.failures === 1 ? '' : 's'}, <strong data-testid="demo-retry-count">{demo.retriesSent}</strong> retr
        {demo.retriesSent === 1 ? 'y' : 'ies'} sent so far
        {demo.waiting[0] ? `; retry ${demo.waiting[0].retry} of ${demo.waiting[0].of} waits` : ''}: the Player page
        shows each one.
      </>
    ) : (
      'The “503 storm” preset, then a refresh the player sends into it and retries.'
    ),
  };

  return (
    <>
      <ol className={styles.steps} aria-label="Demo steps">
        {DEMO_STEPS.map((step, index) => {
          const ticked = done[step] === true;
          const running = run.isPending && run.variables === step;
          // Done, and neither the step just done nor the one to do: a chip of its own, so that by
          // the last step the panel no longer covers the rule that step put in (audit-ui W5).
          if (ticked && step !== lastDone)
            return (
              <li key={step} className={`${styles.step} ${styles.chip}`} data-step={step} data-done>
                <span className={styles.mark} aria-hidden="true">
                  ✓
                </span>
                {/* The whole title on hover; read once, by the text beside it. */}
                <span aria-hidden="true" title={TITLES[step]}>
                  {DONE[step]}
                </span>
                <span className="sr-only">{TITLES[step]}: done</span>
              </li>
            );
          return (
            <li
              key={step}
              className={styles.step}
              data-step={step}
              data-done={ticked}
              aria-current={step === next ? 'step' : undefined}
            >
              <span className={styles.mark} aria-hidden="true">
                {ticked ? '✓' : index + 1}
              </span>
              <div className={styles.body}>
                <div className={styles.title}>
                  {TITLES[step]}
                  <span className="sr-only">{ticked ? ': done' : ''}</span>
                </div>
                {(step === next || step === lastDone) && <p className={styles.what}>{what[step]}</p>}
                {/* Under its words, not beside them: the text keeps the width and the panel a line less. */}
                {step === 'retries' && ticked && demo.marks.ruleId && (
                  <button
                    type="button"
                    className={styles.under}
                    onClick={() => demo.removeFault.mutate(demo.marks.ruleId!)}
                    disabled={demo.removeFault.isPending}
                  >
                    Remove the 503
                  </button>
                )}
                {run.isError && run.variables === step && (
                  <p role="alert" className="error">
                    {run.error.message}
                  </p>
                )}
              </div>
              {!ticked && (
                <button
                  type="button"
                  ref={(button) => {
                    buttons.current.set(step, button);
                  }}
                  className={step === next ? 'primary' : undefined}
                  disabled={step !== next || run.isPending}
                  onClick={() => {
                    setFollowFocus(true);
                    run.mutate(step);
                  }}
                >
                  {running ? 'Working…' : BUTTONS[step]}
                </button>
              )}
            </li>
          );
        })}
      </ol>
      <p className={styles.foot}>
        {next ? `${DEMO_STEPS.indexOf(next)} of ${DEMO_STEPS.length} done.` : 'All done.'}{' '}
        <button type="button" ref={startOver} onClick={begin}>
          Start over
        </button>
      </p>
    </>
  );
}
