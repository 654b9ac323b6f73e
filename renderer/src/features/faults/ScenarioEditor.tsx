/**
 * Creates or edits a scenario as JSON, the very body `POST /admin/api/scenarios` takes. A starter
 * template fills it for a chosen queue and player (with an undo); broken JSON is told by line and
 * column, with the cursor put there, an engine refusal by its own message and the step it names.
 * Ctrl+Enter saves.
 */
import { useRef, useState, type KeyboardEvent } from 'react';
import type { StoredScenarioView } from '@engine-api/commands/scenarios';
import { ApiError } from '../../api';
import { useEngineState } from '../../queries/engine-state';
import { useQueueList } from '../../queries/queues';
import { stepNumber } from '../../format/scenario-report';
import { useSaveScenario } from '../../queries/scenarios';
import { useDrafts } from './drafts';
import { engineProblem, parseScenarioText, scenarioToText, type TextProblem } from './scenario-text';
import { EMPTY_SCENARIO, SCENARIO_TEMPLATES } from './templates';
import styles from './ScenarioEditor.module.css';

export function ScenarioEditor({ onSaved, onCancel }: { onSaved(saved: StoredScenarioView): void; onCancel(): void }) {
  const draft = useDrafts((s) => s.scenario)!;
  const setText = useDrafts((s) => s.setScenarioText);
  const save = useSaveScenario();
  const [problem, setProblem] = useState<TextProblem | null>(null);
  const [undo, setUndo] = useState<string | null>(null);
  const jsonRef = useRef<HTMLTextAreaElement>(null);

  const submit = () => {
    const parsed = parseScenarioText(draft.text);
    if (parsed.problem) {
      setProblem(parsed.problem);
      // The cursor to where the JSON breaks.
      const { offset } = parsed.problem;
      if (offset !== undefined) {
        jsonRef.current?.focus();
        jsonRef.current?.setSelectionRange(offset, offset);
      }
      return;
    }
    setProblem(null);
    save.mutate(parsed.draft as Parameters<typeof save.mutate>[0], {
      onSuccess: onSaved,
      onError: (error) =>
        setProblem(
          error instanceof ApiError ? engineProblem(error.message, error.details) : { message: error.message },
        ),
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <form
      aria-label={draft.editingId ? `Edit scenario ${draft.editingId}` : 'New scenario'}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <TemplatePicker
        onUse={(text) => {
          setUndo(draft.text);
          setText(text);
          setProblem(null);
        }}
      />
      <label className={styles.jsonLabel} htmlFor="scenario-json">
        Scenario JSON{' '}
        <span className="muted">
          — the body of POST /admin/api/scenarios; steps: fault, clearFaults, action, command, clock, expect
        </span>
      </label>
      <textarea
        id="scenario-json"
        ref={jsonRef}
        className={`${styles.json} ${styles.scenarioJson}`}
        value={draft.text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        rows={18}
        spellCheck={false}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? 'scenario-problem' : undefined}
      />
      {problem && (
        <p id="scenario-problem" role="alert" className="error">
          {problem.line !== undefined && (
            <strong>
              Line {problem.line}
              {problem.column !== undefined ? `, column ${problem.column}` : ''}:{' '}
            </strong>
          )}
          {problem.step !== undefined && <strong>Step {stepNumber(problem.step)}: </strong>}
          {problem.message}
        </p>
      )}
      <div className={`form-actions ${styles.actions}`}>
        <button type="submit" className="primary" disabled={save.isPending} title="Ctrl+Enter">
          {save.isPending ? 'Saving…' : 'Save scenario'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        {undo !== null && (
          <button
            type="button"
            onClick={() => {
              setText(undo);
              setUndo(null);
            }}
          >
            Undo template
          </button>
        )}
      </div>
    </form>
  );
}

/** Template, queue and player: the starter scenario for them, or an empty one without a queue. */
function TemplatePicker({ onUse }: { onUse(text: string): void }) {
  const queues = useQueueList().data ?? [];
  const state = useEngineState().data;
  const groups = state?.groups ?? [];
  const [templateId, setTemplateId] = useState(SCENARIO_TEMPLATES[0]!.id);
  const [queueId, setQueueId] = useState('');
  const [groupId, setGroupId] = useState('');
  const queue = queues.find((q) => q.id === queueId) ?? queues[0];
  const group = groups.find((g) => g.id === groupId) ?? groups[0];

  const use = () => {
    const template = SCENARIO_TEMPLATES.find((t) => t.id === templateId);
    if (!template || !queue || !group) return onUse(scenarioToText(EMPTY_SCENARIO));
    onUse(
      scenarioToText(
        template.build({
          queueId: queue.id,
          httpAuthorization: queue.httpAuthorization,
          groupId: group.id,
          playerId: group.coordinatorId,
        }),
      ),
    );
  };

  return (
    <fieldset className={styles.templatePicker}>
      <legend>Start from a template</legend>
      <Picker
        id="template-choice"
        label="Template"
        value={templateId}
        onChange={setTemplateId}
        options={SCENARIO_TEMPLATES.map((t) => ({ value: t.id, label: t.label }))}
      />
      <Picker
        id="template-queue"
        label="Queue"
        value={queue?.id ?? ''}
        onChange={setQueueId}
        options={
          queues.length
            ? queues.map((q) => ({ value: q.id, label: `${q.name} (${q.itemCount} items)` }))
            : [{ value: '', label: 'no queue yet' }]
        }
      />
      <Picker
        id="template-player"
        label="Player"
        value={group?.id ?? ''}
        onChange={setGroupId}
        options={groups.map((g) => ({ value: g.id, label: g.name }))}
      />
      <button type="button" onClick={use}>
        Use template
      </button>
      {queues.length === 0 && (
        <span className="muted">Create a queue in the Queues area first: templates load one.</span>
      )}
      {queue && queue.itemCount < 12 && (
        <span className="muted">Templates expect a queue of a dozen tracks or more.</span>
      )}
    </fieldset>
  );
}

function Picker({
  id,
  label,
  value,
  onChange,
  options,
}: {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  options: { value: string; label: string }[];
}) {
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        disabled={options.length < 2 && options[0]?.value === ''}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
