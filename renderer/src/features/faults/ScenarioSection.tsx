/**
 * Saved scenarios: the list with each one's last result, the selected one's report, run, edit
 * and delete, and the JSON editor for a new one. A run takes the engine clock for itself (one at
 * a time), so every Run button waits while one runs.
 */
import { getRouteApi } from '@tanstack/react-router';
import type { StoredScenarioView } from '@engine-api/commands/scenarios';
import { IGNORE_HELD_KEY, useConfirmStep } from '../../components/useConfirmStep';
import { useDeleteScenario, useRunScenario, useScenarios } from '../../queries/scenarios';
import { useAreaPlace } from '../../router/area-memory';
import { usePaletteActions } from '../../stores/palette-actions';
import { useDrafts } from './drafts';
import { ScenarioEditor } from './ScenarioEditor';
import { ResultBadge, ScenarioReport } from './ScenarioReport';
import { scenarioToText } from './scenario-text';
import { EMPTY_SCENARIO } from './templates';
import styles from './ScenarioSection.module.css';

const route = getRouteApi('/faults');

export function ScenarioSection() {
  const { data: scenarios = [], isLoading } = useScenarios();
  const editing = useDrafts((s) => s.scenario);
  const editScenario = useDrafts((s) => s.editScenario);
  const run = useRunScenario();
  // The scenario open is the address (`#/faults?scenario=<id>`); absent: the first.
  const chosen = route.useSearch().scenario ?? null;
  const faults = useAreaPlace('faults');
  const setChosen = (id: string | null) => faults.go({ scenario: id ?? undefined });
  const selected = scenarios.find((s) => s.id === chosen) ?? scenarios[0] ?? null;

  const startNew = () => editScenario({ editingId: null, text: scenarioToText(EMPTY_SCENARIO) });
  usePaletteActions({ 'faults.newScenario': editing === null ? startNew : undefined });
  const startEdit = (s: StoredScenarioView) => editScenario({ editingId: s.id, text: scenarioToText(s) });

  return (
    <>
      <div className="panel-head">
        <h2 id="scenarios-title">Scenarios</h2>
        <span
          className="muted"
          title="Fault rules, user actions, control commands and clock steps, with the transitions they must cause"
        >
          replayable failures with expected transitions · CI: <code>POST /admin/api/scenarios/&#123;id&#125;/run</code>
        </span>
        <button type="button" onClick={startNew} disabled={editing !== null}>
          New scenario
        </button>
      </div>
      <div className={styles.scenarioLayout}>
        <div>
          {scenarios.length === 0 ? (
            <p className={`muted ${styles.empty}`}>{isLoading ? 'Loading…' : 'No saved scenarios yet.'}</p>
          ) : (
            <ul className={styles.scenarioList} aria-label="Saved scenarios">
              {scenarios.map((s) => (
                <li key={s.id} aria-current={s.id === selected?.id ? 'true' : undefined}>
                  <button
                    type="button"
                    className={styles.scenarioPick}
                    onClick={() => setChosen(s.id)}
                    aria-pressed={s.id === selected?.id}
                  >
                    <span>{s.name}</span>
                    <code className="muted">{s.id}</code>
                  </button>
                  <ResultBadge report={s.lastReport} running={run.isPending && run.variables === s.id} />
                </li>
              ))}
            </ul>
          )}
        </div>
        <div>
          {editing ? (
            <ScenarioEditor
              onSaved={(saved) => {
                editScenario(null);
                setChosen(saved.id);
              }}
              onCancel={() => editScenario(null)}
            />
          ) : selected ? (
            <ScenarioView
              key={selected.id}
              scenario={selected}
              run={run}
              onEdit={() => startEdit(selected)}
              onDeleted={() => setChosen(null)}
            />
          ) : (
            <p className="muted">Start one with New scenario: templates cover the seed’s failure cases.</p>
          )}
        </div>
      </div>
    </>
  );
}

function ScenarioView({
  scenario,
  run,
  onEdit,
  onDeleted,
}: {
  scenario: StoredScenarioView;
  run: ReturnType<typeof useRunScenario>;
  onEdit(): void;
  onDeleted(): void;
}) {
  const remove = useDeleteScenario();
  const confirm = useConfirmStep();

  const running = run.isPending && run.variables === scenario.id;
  // The run just made wins over the stored one until the list catches up.
  const report = run.data?.scenarioId === scenario.id && !running ? run.data : scenario.lastReport;
  const runError = run.isError && run.variables === scenario.id ? run.error : null;

  return (
    <div aria-busy={running || undefined}>
      <div className={styles.scenarioViewHead}>
        <h3>{scenario.name}</h3>
        <span className="muted">{scenario.steps.length} steps</span>
        <div className={`form-actions ${styles.viewActions}`}>
          <button
            type="button"
            className="primary"
            aria-label={`Run ${scenario.name}`}
            disabled={run.isPending}
            onClick={() => run.mutate(scenario.id)}
          >
            {running ? 'Running…' : 'Run'}
          </button>
          <button type="button" onClick={onEdit}>
            Edit
          </button>
          <button
            type="button"
            className={confirm.armed ? 'danger' : undefined}
            disabled={remove.isPending}
            {...IGNORE_HELD_KEY}
            onClick={() => confirm.press(() => remove.mutate(scenario.id, { onSuccess: onDeleted }))}
          >
            {confirm.armed ? 'Confirm delete' : 'Delete'}
          </button>
        </div>
      </div>
      {scenario.description && <p className="muted">{scenario.description}</p>}
      {(runError ?? remove.error) && (
        <p role="alert" className="error">
          {(runError ?? remove.error)!.message}
        </p>
      )}
      {running ? (
        <p role="status" className="muted">
          Running… the engine clock and the fault rules belong to the scenario until it ends; then they are put back as
          they were.
        </p>
      ) : report ? (
        <ScenarioReport report={report} />
      ) : (
        <p className="muted">Not run yet.</p>
      )}
    </div>
  );
}
