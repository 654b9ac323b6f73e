/**
 * Getting traffic out and repros in: the filtered log as a HAR file, a repro bundle of it (HAR,
 * fault rules, queues, clock and a scenario that replays it), and importing a bundle, which says
 * what it created and offers to run the scenario. A file that is not a bundle is refused with the
 * engine's reason and nothing changes. One HAR export answers at most so many MB (an answer that
 * large would hold up the console's listeners: docs/contract/console.md §9); past that, the newest
 * entries that fit are exported and the notice says so.
 */
import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type ChangeEvent } from 'react';
import type { BundleImportResult } from '@engine-api/bundle-types';
import type { ScenarioReport } from '@engine-api/scenario-types';
import { verdictOf } from '@engine-api/scenario-verdict';
import { TRAFFIC_EXPORT_MAX, type TrafficFilter } from '@engine-api/traffic-types';
import type { HarLog } from '@engine-api/har-types';
import { uncheckedScenario } from '@engine-api/scenario-checks';
import { ApiError, type Api } from '../../api';
import { useApi } from '../../api/context';
import { downloadJson } from '../../components/download';
import { FileButton } from '../../components/FileButton';
import { notJsonMessage } from '../../format/not-json';
import { restoredText, stepNumber } from '../../format/scenario-report';
import { fileStamp } from './format';
import styles from './TrafficTransfer.module.css';
import { plural } from '../../format/plural';
import { usePaletteActions } from '../../stores/palette-actions';

export function TrafficTransfer({ filter, total }: { filter: TrafficFilter; total: number }) {
  const api = useApi();
  /** `open`: its notes shown at once, when they say why the bundle checks less than one might think. */
  const [notice, setNotice] = useState<{ text: string; notes?: string[]; open?: boolean } | null>(null);
  const [imported, setImported] = useState<BundleImportResult | null>(null);
  const [importError, setImportError] = useState<string | null>(null);

  const har = useMutation({
    // Every filtered entry the engine holds, up to what one export takes: not the list's count,
    // which is 0 until the list has loaded (a palette export from another area saved 1 entry of
    // 118, outsider).
    mutationFn: () => exportHar(api, filter, TRAFFIC_EXPORT_MAX),
    onSuccess: ({ log, cappedAt }) => {
      downloadJson(`traffic-${fileStamp(Date.now())}.har`, log);
      const held = log.log.entries.length;
      const exported = `${held.toLocaleString('en-US')} ${held === 1 ? 'entry' : 'entries'}`;
      if (cappedAt) {
        setNotice({
          text: `Exported the newest ${exported}${total > held ? ` of ${total.toLocaleString('en-US')}` : ''} as HAR: one export answers at most ${cappedAt} MB. Narrow the filters for the older ones.`,
        });
      } else {
        setNotice({
          text: `Exported ${exported} as HAR${total > TRAFFIC_EXPORT_MAX ? ` (the newest ${TRAFFIC_EXPORT_MAX.toLocaleString('en-US')})` : ''}.`,
        });
      }
    },
  });
  const bundle = useMutation({
    mutationFn: () => api.call('bundles.export', { filter }),
    onSuccess: (exported) => {
      downloadJson(`repro-${fileStamp(Date.now())}.bundle.json`, exported);
      // A scenario with no expectation replays the calls and checks their answers only: said where
      // it is seen, not in a folded note (outsider: a filtered export's run read as the failures reproduced).
      // One that checks nothing at all is what `run` refuses, and said so (outsider: a span of no call).
      const expects = exported.scenario.steps.some((step) => step.type === 'expect');
      const checks = uncheckedScenario(exported.scenario.steps) === undefined;
      const what = expects
        ? ''
        : checks
          ? ", with no expectation: its run checks the calls' answers, not what the players did"
          : ' that checks nothing (no expectation, no call whose answer is judged): a run of it is refused, the notes say why';
      setNotice({
        text: `Exported a repro bundle: ${exported.har.log.entries.length.toLocaleString('en-US')} entries, ${exported.queues.length} queue${exported.queues.length === 1 ? '' : 's'}, ${exported.faults.length} fault rule${exported.faults.length === 1 ? '' : 's'}, a scenario of ${exported.scenario.steps.length} steps${what}.`,
        notes: exported.notes,
        open: !expects,
      });
    },
  });
  const importBundle = useMutation({
    mutationFn: (value: unknown) => api.call('bundles.import', value),
    onSuccess: (result) => {
      setImported(result);
      setImportError(null);
    },
    onError: (error) => setImportError(error.message),
  });

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    setImported(null);
    setImportError(null);
    let text: string;
    try {
      text = await file.text();
    } catch (error) {
      // Moved or deleted since it was picked, or not readable.
      setImportError(`${file.name} could not be read: ${(error as Error).message}`);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      setImportError(notJsonMessage(file.name, text, error));
      return;
    }
    importBundle.mutate(value);
  };

  const importInput = useRef<HTMLInputElement>(null);
  usePaletteActions({
    'traffic.exportHar': () => har.mutateAsync(),
    'traffic.exportBundle': () => bundle.mutateAsync(),
    'traffic.importBundle': () => importInput.current?.click(),
  });

  const failure = har.error ?? bundle.error;
  return (
    <>
      <div className={styles.transfer} role="group" aria-label="Export and import">
        <button
          type="button"
          disabled={har.isPending}
          onClick={() => har.mutate()}
          title="The entries the filters show, as a HAR 1.2 file (secrets masked)"
        >
          {har.isPending ? 'Exporting…' : 'Export HAR'}
        </button>
        <button
          type="button"
          disabled={bundle.isPending}
          onClick={() => bundle.mutate()}
          title="HAR, fault rules, queues, clock and a scenario that replays this traffic on another console"
        >
          {bundle.isPending ? 'Exporting…' : 'Export repro bundle'}
        </button>
        <FileButton
          label="Import bundle…"
          busyLabel="Importing…"
          busy={importBundle.isPending}
          title="Import a repro bundle: its queues, fault rules, clock speed and scenario"
          inputRef={importInput}
          onChange={(event) => void onFile(event)}
        />
      </div>
      {failure && (
        <p className={`error ${styles.line}`} role="alert">
          {failure.message}
        </p>
      )}
      {notice && (
        <div className={styles.notice} role="status">
          {notice.text}
          {notice.notes && notice.notes.length > 0 && (
            <details open={notice.open}>
              <summary>{plural(notice.notes.length, 'note')} on what will not replay</summary>
              <ul>
                {notice.notes.map((note) => (
                  <li key={note}>{note}</li>
                ))}
              </ul>
            </details>
          )}
          <button type="button" className="link" onClick={() => setNotice(null)}>
            dismiss
          </button>
        </div>
      )}
      {importError && (
        <p className={`error ${styles.line}`} role="alert">
          The bundle was not imported, nothing changed: {importError}
        </p>
      )}
      {imported && <ImportResult result={imported} onClose={() => setImported(null)} />}
    </>
  );
}

/** What a refused export says fits (see the engine's har-export.ts). */
interface HarTooLarge {
  fits: number;
  maxBytes: number;
}

function tooLarge(error: unknown): HarTooLarge | null {
  if (!(error instanceof ApiError) || error.code !== 'invalid_input') return null;
  const details = error.details as Partial<HarTooLarge> | undefined;
  return typeof details?.fits === 'number' && details.fits > 0 && typeof details.maxBytes === 'number'
    ? { fits: details.fits, maxBytes: details.maxBytes }
    : null;
}

/** The filtered log as HAR; an export too large for one answer is asked again for the newest entries that fit. */
async function exportHar(
  api: Api,
  filter: TrafficFilter,
  limit: number,
): Promise<{ log: HarLog; cappedAt: number | null }> {
  try {
    return { log: await api.call('traffic.har', { filter, limit }), cappedAt: null };
  } catch (error) {
    const capped = tooLarge(error);
    if (!capped) throw error;
    return {
      log: await api.call('traffic.har', { filter, limit: capped.fits }),
      cappedAt: Math.round(capped.maxBytes / (1024 * 1024)),
    };
  }
}

function ImportResult({ result, onClose }: { result: BundleImportResult; onClose(): void }) {
  const api = useApi();
  const run = useMutation({ mutationFn: () => api.call('scenarios.run', { id: result.scenario.id }) });
  return (
    <section className={`${styles.importResult} panel`} aria-label="Imported bundle">
      <div className="panel-head">
        <h2>Bundle imported</h2>
        <button type="button" className="link" onClick={onClose}>
          close
        </button>
      </div>
      <ul>
        {result.queues.map((queue) => (
          <li key={queue.id}>
            Queue <strong>{queue.name}</strong> ({queue.itemCount.toLocaleString('en-US')} items) as{' '}
            <code>{queue.id}</code>
          </li>
        ))}
        <li>
          {result.faults.length} fault rule{result.faults.length === 1 ? '' : 's'}
          {result.faults.length > 0 &&
            `, live now (Faults area): ${result.faults.map((f) => f.label ?? `${f.action} at ${f.target}`).join(', ')}`}
        </li>
        <li>
          Scenario <strong>{result.scenario.name}</strong> ({result.scenario.steps} steps)
        </li>
        <li>Clock speed {result.clock.speed}</li>
      </ul>
      {[...result.warnings, ...result.notes].length > 0 && (
        <ul className={styles.warnings}>
          {[...result.warnings, ...result.notes].map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      )}
      <div className={styles.actions}>
        <button type="button" className="primary" disabled={run.isPending} onClick={() => run.mutate()}>
          {run.isPending ? 'Running…' : 'Run scenario'}
        </button>
        {run.error && (
          <span className="error" role="alert">
            {run.error.message}
          </span>
        )}
      </div>
      {run.data && <RunReport report={run.data} />}
    </section>
  );
}

function RunReport({ report }: { report: ScenarioReport }) {
  const failed = report.steps.find((step) => step.status === 'failed');
  const verdict = verdictOf(report);
  return (
    <div
      className={styles.runReport}
      role="status"
      data-passed={report.passed}
      data-verdict={verdict.replace(' ', '-')}
    >
      <strong>{verdict[0]!.toUpperCase() + verdict.slice(1)}</strong>{' '}
      {failed
        ? `at step ${stepNumber(failed.index)}: ${failed.message}`
        : (report.notChecked ??
          `${plural(report.steps.length, 'step')}, ${plural(report.transitions.length, 'transition')}, ${report.wallMs} ms`)}
      {report.restored && `. After the run: ${restoredText(report.restored)}.`}
    </div>
  );
}
