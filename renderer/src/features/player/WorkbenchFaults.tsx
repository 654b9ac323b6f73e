/**
 * The live fault rules beside the player: each with its hits as they happen, the warning when an
 * earlier rule takes its requests, "Trigger now" (the engine sends, from this player, the request
 * the rule waits for) and remove; a preset injected in one click; and the player's own requests
 * sent at once, so a rule does not wait half an hour for a steadily playing player's next one.
 */
import { useRef, useState } from 'react';
import type { FaultRuleView, TriggerRequest, TriggerResult } from '@engine-api/fault-types';
import { Badge } from '../../components/Badge';
import { useApplyPreset, useFaultPresets, useFaultRules, useRemoveFault } from '../../queries/faults';
import { useTriggerPlayer, useTriggerRule } from '../../queries/player-workbench';
import { usePlayerDetail } from '../../queries/players';
import { usePaletteActions } from '../../stores/palette-actions';
import { WorkbenchField, WorkbenchToolbar } from './WorkbenchToolbar';
import styles from './WorkbenchFaults.module.css';

const PLAYER_TRIGGERS: { request: TriggerRequest; label: string }[] = [
  { request: 'refresh', label: 'Refresh' },
  { request: 'versionPoll', label: 'Version poll' },
  { request: 'nextWindow', label: 'Next window' },
];

export function WorkbenchFaults({ playerId }: { playerId: string }) {
  const ruleList = useFaultRules();
  const rules = ruleList.data ?? [];
  const presets = useFaultPresets().data ?? [];
  const apply = useApplyPreset();
  const remove = useRemoveFault();
  const triggerRule = useTriggerRule();
  const triggerPlayer = useTriggerPlayer();
  // Why the player would refuse a request now (its precondition table, through the admin API): said on its button.
  const refusals = usePlayerDetail(playerId).data?.refusals ?? {};
  const [preset, setPreset] = useState('');
  const presetField = useRef<HTMLSelectElement>(null);
  const ruleRows = useRef<HTMLUListElement>(null);
  // A removed rule takes its focused ✕ with it, and focus fell to the page (audit-ui W13): it goes
  // to the next rule's ✕ (the one before, for the last), or to the preset once none is left.
  const removeAt = (index: number) => {
    const next = rules[index + 1] ?? rules[index - 1];
    remove.mutate(rules[index]!.id, {
      onSettled: () =>
        setTimeout(() => {
          const row = [...(ruleRows.current?.querySelectorAll<HTMLElement>('li[data-rule-id]') ?? [])].find(
            (li) => li.dataset.ruleId === next?.id,
          );
          (row?.querySelector<HTMLButtonElement>('button[aria-label^="Remove rule"]') ?? presetField.current)?.focus();
        }),
    });
  };
  const [sent, setSent] = useState<TriggerResult | null>(null);
  const chosen = preset || presets[0]?.id || '';
  const error = apply.error ?? remove.error ?? triggerRule.error ?? triggerPlayer.error;
  const onSent = { onSuccess: (result: TriggerResult) => setSent(result), onMutate: () => setSent(null) };
  const sendNow = (request: TriggerRequest) => () => triggerPlayer.mutateAsync({ id: playerId, request }, onSent);
  usePaletteActions({
    'player.sendRefresh': sendNow('refresh'),
    'player.sendVersionPoll': sendNow('versionPoll'),
    'player.sendNextWindow': sendNow('nextWindow'),
  });

  return (
    <>
      <WorkbenchToolbar>
        <WorkbenchField label="Preset">
          <select
            ref={presetField}
            aria-label="Fault preset"
            value={chosen}
            onChange={(e) => setPreset(e.target.value)}
          >
            {presets.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
        </WorkbenchField>
        {/* Not disabled while it injects: a focused button that is disabled drops the focus to the page (audit-ui W13). */}
        <button
          type="button"
          className="primary"
          disabled={!chosen}
          aria-disabled={apply.isPending || undefined}
          onClick={() => {
            if (!apply.isPending)
              apply.mutate({ id: chosen, target: presets.find((p) => p.id === chosen)!.rule.target });
          }}
        >
          {apply.isPending ? 'Injecting…' : 'Inject'}
        </button>
      </WorkbenchToolbar>
      {rules.length === 0 ? (
        <p className="muted">
          {ruleList.isPending ? 'Reading the fault rules…' : 'No fault rules: every request is answered normally.'}
        </p>
      ) : (
        <ul ref={ruleRows} className={styles.rules} aria-label="Active fault rules">
          {rules.map((rule, index) => (
            <RuleItem
              key={rule.id}
              rule={rule}
              onTrigger={() => triggerRule.mutate({ id: rule.id, playerId }, onSent)}
              triggering={triggerRule.isPending && triggerRule.variables?.id === rule.id}
              onRemove={() => removeAt(index)}
            />
          ))}
        </ul>
      )}
      <WorkbenchToolbar role="group" aria-label="Send a player request now">
        <span className="muted">Send now:</span>
        {PLAYER_TRIGGERS.map(({ request, label }) => (
          <button
            key={request}
            type="button"
            disabled={triggerPlayer.isPending}
            title={refusals[`trigger:${request}`]?.reason}
            onClick={() => triggerPlayer.mutate({ id: playerId, request }, onSent)}
          >
            {label}
          </button>
        ))}
      </WorkbenchToolbar>
      <div role="status" aria-label="Trigger answer" className={styles.triggerAnswer}>
        {sent && (
          <>
            Sent <code>{sent.sent}</code>: <span className="muted">{sent.note}</span>
          </>
        )}
      </div>
      {error && (
        <p role="alert" className={styles.bad}>
          {error.message}
        </p>
      )}
    </>
  );
}

function RuleItem({
  rule,
  onTrigger,
  triggering,
  onRemove,
}: {
  rule: FaultRuleView;
  onTrigger(): void;
  triggering: boolean;
  onRemove(): void;
}) {
  const name = rule.label ?? rule.id;
  return (
    <li className={styles.rule} aria-label={name} data-rule-id={rule.id} data-spent={rule.spent || undefined}>
      <span className={styles.ruleName}>
        <strong>{name}</strong>
        <span className="muted">{` ${rule.target}`}</span>
      </span>
      <span data-testid="workbench-rule-hits" data-hits={rule.hits}>
        {rule.hits} {rule.hits === 1 ? 'hit' : 'hits'}
        {rule.times !== undefined && <span className="muted">{` of ${rule.times}`}</span>}
      </span>
      {rule.spent && <Badge>spent</Badge>}
      <span className={styles.ruleActions}>
        <button
          type="button"
          disabled={rule.spent || triggering}
          onClick={onTrigger}
          aria-label={`Trigger now: ${name}`}
          title="Send the request this rule waits for, from this player"
        >
          {triggering ? 'Sending…' : 'Trigger now'}
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label={`Remove rule ${name}`}
          title="Remove this rule"
          onClick={onRemove}
        >
          ✕
        </button>
      </span>
      {rule.warning && (
        <span className={styles.warning} role="note">
          <Badge tone="warn">{rule.shadow === 'full' ? 'never fires' : 'shadowed'}</Badge> {rule.warning}
        </span>
      )}
    </li>
  );
}
