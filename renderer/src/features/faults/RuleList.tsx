/**
 * The live fault rules in matching order (the first that matches fails the request): what each
 * matches, does and how long it lasts, its hits as they happen, spent rules dimmed, remove per
 * rule, and one big "Clear all".
 */
import type { FaultRule } from '@engine-api/fault-types';
import { useClearFaults, useFaultRules, useRemoveFault } from '../../queries/faults';
import { TARGET_LABELS, TARGET_SHORT, describeAction, describeHits, describeMatch, describeScope } from './describe';

export function RuleList() {
  const { data: rules = [], isLoading } = useFaultRules();
  const remove = useRemoveFault();
  const clear = useClearFaults();
  const live = rules.filter((r) => !r.spent).length;
  const error = remove.error ?? clear.error;

  return (
    <>
      <div className="faults-panel-head">
        <h2 id="rules-title">Active rules</h2>
        <span className="muted" aria-live="polite" data-testid="rules-summary">
          {rules.length === 0 ? 'none' : `${live} live${rules.length > live ? ` · ${rules.length - live} spent` : ''}`}
        </span>
        <button type="button" className="danger clear-all" onClick={() => clear.mutate()} disabled={rules.length === 0 || clear.isPending}>
          {clear.isPending ? 'Clearing…' : 'Clear all'}
        </button>
      </div>
      {error && (
        <p role="alert" className="faults-error">
          {error.message}
        </p>
      )}
      {rules.length === 0 ? (
        <p className="muted faults-empty">{isLoading ? 'Loading…' : 'No fault rules: every request is answered normally.'}</p>
      ) : (
        <div className="rules-scroll">
          <table className="rules-table" aria-label="Fault rules">
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">Where · match</th>
                <th scope="col">Action</th>
                <th scope="col">Scope</th>
                <th scope="col">Hits</th>
                <th scope="col">
                  <span className="sr-only">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rules.map((rule) => (
                <RuleRow key={rule.id} rule={rule} removing={remove.isPending && remove.variables === rule.id} onRemove={() => remove.mutate(rule.id)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function RuleRow({ rule, removing, onRemove }: { rule: FaultRule; removing: boolean; onRemove(): void }) {
  const name = rule.label ?? rule.id;
  return (
    <tr data-rule-id={rule.id} data-spent={rule.spent || undefined} aria-label={name}>
      <td>
        <span className="rule-name">{name}</span>
        {/* Two rules may share a label (a preset injected twice): the id tells them apart. */}
        {rule.label !== undefined && <code className="rule-id muted">{rule.id}</code>}
        <span className="pill" data-state={rule.spent ? 'spent' : 'live'}>
          {rule.spent ? 'spent' : 'live'}
        </span>
      </td>
      <td>
        <span className="rule-target" title={TARGET_LABELS[rule.target]}>
          {TARGET_SHORT[rule.target]}
        </span>
        <code>{describeMatch(rule.match)}</code>
      </td>
      <td>{describeAction(rule.action)}</td>
      <td>{describeScope(rule)}</td>
      <td className="hits" data-testid="rule-hits" data-hits={rule.hits}>
        {/* Keyed by the count so each new hit replays the flash. */}
        <span key={rule.hits} className={rule.hits > 0 ? 'hit-flash' : undefined}>
          {describeHits(rule)}
        </span>
      </td>
      <td>
        <button type="button" className="icon-button" aria-label={`Remove rule ${name}${rule.label !== undefined ? ` (${rule.id})` : ''}`} title="Remove this rule" disabled={removing} onClick={onRemove}>
          ✕
        </button>
      </td>
    </tr>
  );
}
