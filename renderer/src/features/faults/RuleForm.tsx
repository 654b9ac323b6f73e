/**
 * The custom rule form: target, match, action, scope. What cannot be read is blamed on its field
 * before anything is sent; what the engine refuses comes back with its own message, on the field
 * its path names (every field it refused, at once), and the cursor goes to the first marked field.
 * Nothing typed is ever cleared by an error.
 */
import { useEffect, useRef, useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { FAULT_TARGETS, type FaultAction } from '@engine-api/fault-types';
import { ApiError } from '../../api';
import { SegmentedControl, type SegmentOption } from '../../components/SegmentedControl';
import { useAddFault } from '../../queries/faults';
import { TARGET_LABELS } from './describe';
import { useDrafts } from './drafts';
import {
  fieldOfPath,
  ruleFromFields,
  type FieldErrors,
  type FieldName,
  type RuleFields,
  type Scope,
} from './rule-form';
import styles from './RuleForm.module.css';

/** The fields typed as text (the others are chosen). */
type TextName = Exclude<FieldName, 'target' | 'method' | 'action' | 'scope' | 'body'>;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const PATHS = [
  '/itemWindow',
  '/version',
  '/context',
  '/timePlayed',
  '/login/v3/oauth',
  '/login/v3/oauth/access',
  '/api/v1/*',
];
const REASONS = [
  'load',
  'pause',
  'play',
  'queueCompleted',
  'refresh',
  'resume',
  'skipNext',
  'skipPrev',
  'skipToItem',
  'load+queueCompleted',
];
const REJECTED_REASONS = ['ANOTHER_STREAM_BEING_PLAYED', 'STREAM_RATE_LIMIT_REACHED', 'SKIP_LIMIT_REACHED'];
const ACTIONS: SegmentOption<FaultAction['type']>[] = [
  {
    value: 'status',
    label: 'Status',
    hint: 'Answer with a status code (503 with Retry-After, 403 with X-Rejected-Reason, 404, 500, …)',
  },
  {
    value: 'timeout',
    label: 'Timeout',
    hint: 'Never answer: the client gives up (the player after 10 s of engine time)',
  },
  { value: 'drop', label: 'Drop', hint: 'Reset the connection: an incomplete request' },
  { value: 'latency', label: 'Latency', hint: 'Answer normally, late' },
  { value: 'malformed', label: 'Malformed', hint: '200 with a body that is not JSON' },
];
const SCOPES: SegmentOption<Scope>[] = [
  { value: 'times', label: 'Next N requests', hint: 'Then the rule is spent' },
  { value: 'probability', label: 'Probability', hint: 'Each matching request, drawn from a seeded generator' },
  { value: 'forever', label: 'Until removed' },
];

export function RuleForm() {
  const fields = useDrafts((s) => s.rule);
  const setRule = useDrafts((s) => s.setRule);
  const resetRule = useDrafts((s) => s.resetRule);
  const add = useAddFault();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [summary, setSummary] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // Bumped by each refused submit; the effect runs after React marked the fields.
  const [focusFirstError, setFocusFirstError] = useState(0);
  useEffect(() => {
    if (focusFirstError > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusFirstError]);

  const set = (patch: Partial<typeof fields>) => {
    setRule(patch);
    // An error stays until its own field changes.
    const touched = Object.keys(patch) as FieldName[];
    const left = Object.keys(errors).filter((name) => !touched.includes(name as FieldName));
    if (touched.some((name) => errors[name]))
      setErrors((e) => Object.fromEntries(Object.entries(e).filter(([name]) => !touched.includes(name as FieldName))));
    // The summary says what the marks say, or what no field holds: it goes with the last mark, or
    // with any change when there was none (audit: it stayed, saying what was already fixed).
    if (summary && left.length === 0) setSummary(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSummary(null);
    const built = ruleFromFields(fields);
    if (built.errors) {
      showErrors(built.errors);
      setSummary('Fix the marked fields: nothing was sent.');
      return;
    }
    setErrors({});
    add.mutate(built.rule, {
      onError: (error) => {
        // Every field the engine refused, each with its first reason, not only the first one.
        const details =
          error instanceof ApiError && Array.isArray(error.details)
            ? (error.details as { path?: string; message?: string }[])
            : [];
        const refused: FieldErrors = {};
        for (const detail of details) {
          const name = fieldOfPath(detail.path);
          if (name && detail.message && !refused[name]) refused[name] = detail.message;
        }
        showErrors(refused);
        const marked = Object.keys(refused).length;
        // Said beside its fields when the engine named them; its own words only when it named none.
        setSummary(
          marked > 0
            ? `The engine refused ${marked === 1 ? 'a field' : `${marked} fields`}: each says why beside it. Nothing was added.`
            : `The engine refused the rule: ${error.message.replace(/^faults\.add: /, '')}`,
        );
      },
    });
  };

  /** Marks the fields, and (once they are marked) puts the cursor in the first one, in the form's order. */
  const showErrors = (next: FieldErrors) => {
    setErrors(next);
    setFocusFirstError((n) => n + 1);
  };

  const field = (name: FieldName) => ({
    id: `rule-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `rule-${name}-error` : undefined,
  });
  const textField = (
    name: TextName,
    label: string,
    props: InputHTMLAttributes<HTMLInputElement> = {},
    wide = false,
  ) => (
    <Labelled label={label} htmlFor={`rule-${name}`} problem={problem(name)} wide={wide}>
      <input
        {...field(name)}
        value={fields[name]}
        onChange={(e) => set({ [name]: e.target.value } as Partial<RuleFields>)}
        {...props}
      />
    </Labelled>
  );
  const problem = (name: FieldName) =>
    errors[name] ? (
      <span id={`rule-${name}-error`} className={styles.fieldError}>
        {errors[name]}
      </span>
    ) : null;

  return (
    <form ref={formRef} className={styles.ruleForm} onSubmit={submit} aria-labelledby="custom-title" noValidate>
      <div className="panel-head">
        <h2 id="custom-title">Custom rule</h2>
      </div>
      <div className={styles.ruleRow}>
        <Labelled label="Target" htmlFor="rule-target" problem={problem('target')}>
          <select
            {...field('target')}
            value={fields.target}
            onChange={(e) => set({ target: e.target.value as typeof fields.target })}
          >
            {FAULT_TARGETS.map((t) => (
              <option key={t} value={t}>
                {TARGET_LABELS[t]}
              </option>
            ))}
          </select>
        </Labelled>
        {textField('label', 'Label', { placeholder: 'optional, shown in the list' })}
      </div>

      <fieldset>
        <legend>Match</legend>
        <div className={styles.ruleRow}>
          <Labelled label="Method" htmlFor="rule-method" problem={problem('method')}>
            <select {...field('method')} value={fields.method} onChange={(e) => set({ method: e.target.value })}>
              <option value="">any</option>
              {METHODS.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          </Labelled>
          {textField(
            'path',
            'Path',
            // Short enough for the field at 1024 px (the longer one was cut, audit); the rest on hover and in the list.
            {
              list: 'rule-paths',
              placeholder: 'any; a path or a glob',
              title: 'Empty for any; a path such as /itemWindow, or a glob such as /queues/*/v2.0/*',
            },
            true,
          )}
          {textField('reason', 'Reason', { list: 'rule-reasons', placeholder: 'any' })}
        </div>
        <datalist id="rule-paths">
          {PATHS.map((p) => (
            <option key={p} value={p} />
          ))}
        </datalist>
        <datalist id="rule-reasons">
          {REASONS.map((r) => (
            <option key={r} value={r} />
          ))}
        </datalist>
      </fieldset>

      <fieldset>
        <legend>Action</legend>
        <SegmentedControl
          label="Action"
          name="rule-action"
          options={ACTIONS}
          value={fields.action}
          onChange={(action) => set({ action })}
        />
        {fields.action === 'status' && (
          <>
            <div className={styles.ruleRow}>
              {textField('status', 'Status code', { inputMode: 'numeric', size: 5 })}
              {textField('retryAfter', 'Retry-After (s)', { inputMode: 'numeric', placeholder: 'none', size: 6 })}
              {textField('rejectedReason', 'X-Rejected-Reason', { list: 'rule-rejected', placeholder: 'none' }, true)}
            </div>
            <datalist id="rule-rejected">
              {REJECTED_REASONS.map((r) => (
                <option key={r} value={r} />
              ))}
            </datalist>
            <Labelled label="Body" htmlFor="rule-body" problem={problem('body')} wide>
              <textarea
                {...field('body')}
                className={styles.code}
                value={fields.body}
                onChange={(e) => set({ body: e.target.value })}
                rows={2}
                placeholder="default: the server's own error body; JSON is sent as JSON, anything else as text"
              />
            </Labelled>
          </>
        )}
        {fields.action === 'latency' && (
          <div className={styles.ruleRow}>
            {textField('latencyMs', 'Latency (ms)', { inputMode: 'numeric', size: 8 })}
            <span className={`muted ${styles.ruleHint}`}>engine time: at speed 0 the answer waits for the clock</span>
          </div>
        )}
      </fieldset>

      <fieldset>
        <legend>Scope</legend>
        <SegmentedControl
          label="Scope"
          name="rule-scope"
          options={SCOPES}
          value={fields.scope}
          onChange={(scope) => set({ scope })}
        />
        {fields.scope === 'times' && (
          <div className={styles.ruleRow}>
            {textField('times', 'N', { inputMode: 'numeric', size: 6 })}
            <span className={`muted ${styles.ruleHint}`}>then the rule is spent and stays listed with its count</span>
          </div>
        )}
        {fields.scope === 'probability' && (
          <div className={styles.ruleRow}>
            {textField('probability', 'Probability (0–1)', { inputMode: 'decimal', size: 6 })}
            {textField('seed', 'Seed', { inputMode: 'numeric', placeholder: 'random', size: 10 })}
            <span className={`muted ${styles.ruleHint}`}>the same seed fails the same requests in every run</span>
          </div>
        )}
      </fieldset>

      {summary && (
        <p role="alert" className="error">
          {summary}
        </p>
      )}
      {add.isSuccess && !summary && (
        <p role="status" className="muted">
          Added {add.data.label ?? add.data.id}.
        </p>
      )}
      <div className={`form-actions ${styles.actions}`}>
        <button type="submit" className="primary" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add rule'}
        </button>
        <button
          type="button"
          onClick={() => {
            resetRule();
            setErrors({});
            setSummary(null);
            add.reset();
          }}
        >
          Reset form
        </button>
      </div>
    </form>
  );
}

function Labelled({
  label,
  htmlFor,
  problem,
  wide,
  children,
}: {
  label: string;
  htmlFor: string;
  problem: ReactNode;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={wide ? `${styles.field} ${styles.wide}` : styles.field}>
      <label htmlFor={htmlFor}>{label}</label>
      {children}
      {problem}
    </div>
  );
}
