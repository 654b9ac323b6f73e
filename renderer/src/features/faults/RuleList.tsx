/**
 * The live fault rules in matching order, numbered (the first that matches fails the request):
 * what each matches, does and how long it lasts, its hits as they happen, spent rules dimmed.
 * A rule an earlier one shadows says so on its row, with a button that moves it first (
 * a "404 on itemWindow" added under a live 503 storm never fired, and nothing said why). Rules
 * reorder by drag, by Move up / Move down, or Alt+↑/↓ on a row; "Trigger now" sends the request
 * a rule waits for, and says why not when the player would not send it now. One "Clear all".
 */
import { useLayoutEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import type { FaultRuleView, FaultShadowKind, TriggerResult } from '@engine-api/fault-types';
import { Badge } from '../../components/Badge';
import { DataTable } from '../../components/DataTable';
import { IGNORE_HELD_KEY, useConfirmStep } from '../../components/useConfirmStep';
import { useClearFaults, useFaultRules, useMoveFault, useRemoveFault, useTriggerFault } from '../../queries/faults';
import { TARGET_LABELS, TARGET_SHORT, describeAction, describeHits, describeMatch, describeScope } from './describe';
import { dropIndex, placeText, stepIndex } from './rule-order';
import styles from './RuleList.module.css';

const SHADOW_TITLE: Record<FaultShadowKind, string> = {
  full: 'Never fires',
  partial: 'Partly shadowed',
  delayed: 'Waits its turn',
};

type Said = { ruleId: string; result: TriggerResult } | { ruleId: string; refused: string };

/** A keyboard move's rule and the button that moved it. */
interface MoveFocus {
  id: string;
  which: 'up' | 'down' | 'first';
}

/** How long after a move's answer its pushed order may still come and take the cursor back. */
const MOVE_FOCUS_MS = 1_000;

export function RuleList() {
  const { data: rules = [], isLoading } = useFaultRules();
  const remove = useRemoveFault();
  const clear = useClearFaults();
  // Custom rules took typing: one stray click must not take them all (the first press arms).
  const confirmClear = useConfirmStep();
  const heading = useRef<HTMLHeadingElement>(null);
  const move = useMoveFault();
  const trigger = useTriggerFault();
  const [said, setSaid] = useState<Said | null>(null);
  const [moved, setMoved] = useState<string | null>(null);
  const dragged = useRef<number | null>(null);
  const live = rules.filter((r) => !r.spent).length;
  const error = remove.error ?? clear.error ?? move.error;

  // A keyboard move keeps the cursor on its row through every render of the move: the pushed
  // order can land before the call's answer or after it (a push of hits made before the move can
  // even bring the old order back for a moment), and a row moved in the DOM, or a move button
  // disabled at an end, drops focus; a key pressed in between would fall on the page. Let go when
  // the move fails, when the rule is gone, or MOVE_FOCUS_MS after the call settled. (Let go as
  // the call settled, a push that came later dropped the cursor with nobody to catch it: the
  // e2e spec of a shadowed rule failed 3 runs in 20.)
  const keepFocus = useRef<MoveFocus | null>(null);
  useLayoutEffect(() => {
    const wanted = keepFocus.current;
    if (!wanted) return;
    if (!rules.some((r) => r.id === wanted.id)) keepFocus.current = null;
    else keepCursor(wanted.id, wanted.which);
  }, [rules]);

  const moveTo = (rule: FaultRuleView, toIndex: number, focus?: 'up' | 'down' | 'first') => {
    // Every move takes the lock (a drag or a click releases it).
    const kept: MoveFocus | null = focus ? { id: rule.id, which: focus } : null;
    keepFocus.current = kept;
    const release = () => {
      if (keepFocus.current === kept) keepFocus.current = null;
    };
    move.mutate(
      { id: rule.id, toIndex },
      {
        onError: release,
        onSettled: () => setTimeout(release, MOVE_FOCUS_MS),
        onSuccess: (order) => {
          setMoved(
            `${nameOf(rule)} moved to ${placeText(
              order.findIndex((r) => r.id === rule.id),
              order.length,
            )}.`,
          );
          // The row moved in the DOM: the cursor goes back to the button pressed, or its twin at an end.
          if (focus) requestAnimationFrame(() => keepCursor(rule.id, focus));
        },
      },
    );
  };
  const step = (rule: FaultRuleView, index: number, direction: 'up' | 'down') => {
    const to = stepIndex(index, direction, rules.length);
    if (to !== null) moveTo(rule, to, direction);
  };
  const fire = (rule: FaultRuleView) => {
    setSaid(null);
    trigger.mutate(rule.id, {
      onSuccess: (result) => setSaid({ ruleId: rule.id, result }),
      onError: (e) => setSaid({ ruleId: rule.id, refused: e.message.replace(/^faults\.trigger: /, '') }),
    });
  };

  return (
    <>
      <div className="panel-head">
        <h2 id="rules-title" ref={heading} tabIndex={-1}>
          Active rules
        </h2>
        <span className="muted" aria-live="polite" data-testid="rules-summary">
          {rules.length === 0
            ? 'none'
            : `${live} live${rules.length > live ? ` · ${rules.length - live} spent` : ''} · first match wins`}
        </span>
        <button
          type="button"
          className={`danger ${styles.clearAll}`}
          // The button goes off once the rules are gone: the cursor goes to the list's heading, not to the page.
          onClick={() =>
            confirmClear.press(() => clear.mutate(undefined, { onSuccess: () => heading.current?.focus() }))
          }
          {...IGNORE_HELD_KEY}
          disabled={rules.length === 0 || clear.isPending}
        >
          {clear.isPending
            ? 'Clearing…'
            : confirmClear.armed
              ? `Confirm: remove ${rules.length === 1 ? 'the rule' : `all ${rules.length} rules`}`
              : 'Clear all'}
        </button>
      </div>
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
      <p className="sr-only" role="status">
        {moved}
      </p>
      {said && <TriggerSaid said={said} rules={rules} />}
      {rules.length === 0 ? (
        <p className={`muted ${styles.empty}`}>
          {isLoading ? 'Loading…' : 'No fault rules: every request is answered normally.'}
        </p>
      ) : (
        <DataTable className={styles.rules} aria-label="Fault rules" aria-describedby="rules-order-hint">
          <caption id="rules-order-hint" className="sr-only">
            In matching order: the first rule that matches a request fails it. Alt+Up and Alt+Down move the focused
            rule.
          </caption>
          <thead>
            <tr>
              <th scope="col" title="Matching order: the first rule that matches a request fails it">
                #
              </th>
              <th scope="col">Rule</th>
              <th scope="col">Where · match</th>
              <th scope="col">Action</th>
              <th scope="col">Scope</th>
              <th scope="col">Hits</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rules.map((rule, index) => (
              <RuleRow
                key={rule.id}
                rule={rule}
                index={index}
                count={rules.length}
                busy={move.isPending}
                removing={remove.isPending && remove.variables === rule.id}
                triggering={trigger.isPending && trigger.variables === rule.id}
                onRemove={() => remove.mutate(rule.id)}
                onStep={(direction) => step(rule, index, direction)}
                onFirst={() => moveTo(rule, 0, 'first')}
                onTrigger={() => fire(rule)}
                onDragStart={() => (dragged.current = index)}
                onDrop={() => {
                  const to = dragged.current === null ? null : dropIndex(dragged.current, index);
                  const from = dragged.current === null ? undefined : rules[dragged.current];
                  dragged.current = null;
                  if (to !== null && from) moveTo(from, to);
                }}
              />
            ))}
          </tbody>
        </DataTable>
      )}
    </>
  );
}

function nameOf(rule: FaultRuleView): string {
  return rule.label ?? rule.id;
}

/**
 * Puts the cursor back on the rule's move button, unless the user put it elsewhere (outside the
 * row) or it sits on a button of the row that still works.
 */
function keepCursor(id: string, which: 'up' | 'down' | 'first') {
  const active = document.activeElement;
  const row = document.querySelector(`[data-rule-id="${CSS.escape(id)}"]`);
  if (active && active !== document.body && !row?.contains(active)) return;
  if (active instanceof HTMLButtonElement && row?.contains(active) && !active.disabled) return;
  focusMoveButton(id, which);
}

function focusMoveButton(id: string, which: 'up' | 'down' | 'first') {
  const row = document.querySelector(`[data-rule-id="${CSS.escape(id)}"]`);
  const wanted = row?.querySelector<HTMLButtonElement>(
    `[data-move="${which === 'first' ? 'down' : which}"]:not(:disabled)`,
  );
  (wanted ?? row?.querySelector<HTMLButtonElement>('[data-move]:not(:disabled)'))?.focus();
}

/** What "Trigger now" sent and what to expect of it, or why the player would not send it. */
function TriggerSaid({ said, rules }: { said: Said; rules: FaultRuleView[] }) {
  const rule = rules.find((r) => r.id === said.ruleId);
  const name = rule ? nameOf(rule) : said.ruleId;
  if ('refused' in said) {
    return (
      <p role="alert" className="error" data-testid="trigger-said">
        Not sent for {name}: {said.refused}
      </p>
    );
  }
  return (
    <p role="status" className={styles.triggerSaid} data-testid="trigger-said">
      Sent <code>{said.result.sent}</code> from {said.result.playerId} for {name}. {said.result.note}
    </p>
  );
}

interface RowProps {
  rule: FaultRuleView;
  index: number;
  count: number;
  busy: boolean;
  removing: boolean;
  triggering: boolean;
  onRemove(): void;
  onStep(direction: 'up' | 'down'): void;
  onFirst(): void;
  onTrigger(): void;
  onDragStart(): void;
  onDrop(): void;
}

function RuleRow({
  rule,
  index,
  count,
  busy,
  removing,
  triggering,
  onRemove,
  onStep,
  onFirst,
  onTrigger,
  onDragStart,
  onDrop,
}: RowProps) {
  const name = nameOf(rule);
  // Two rules may share a label (a preset injected twice): the id tells them apart.
  const named = `${name}${rule.label !== undefined ? ` (${rule.id})` : ''}`;
  const warningId = `rule-warning-${rule.id}`;
  const [over, setOver] = useState(false);

  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    event.preventDefault();
    onStep(event.key === 'ArrowUp' ? 'up' : 'down');
  };
  const dropHandlers = {
    onDragOver: (event: DragEvent) => {
      event.preventDefault();
      setOver(true);
    },
    onDragLeave: () => setOver(false),
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      setOver(false);
      onDrop();
    },
  };

  return (
    <tr
      data-rule-id={rule.id}
      data-spent={rule.spent || undefined}
      data-shadow={rule.shadow ?? undefined}
      data-drop-target={over || undefined}
      aria-label={name}
      aria-describedby={rule.warning ? warningId : undefined}
      onKeyDown={onKeyDown}
      {...dropHandlers}
    >
      <td className={styles.ruleOrder}>
        <span
          className={styles.dragHandle}
          draggable
          title="Drag to reorder (or Alt+↑/↓)"
          onDragStart={(event) => {
            event.dataTransfer.effectAllowed = 'move';
            event.dataTransfer.setData('text/plain', rule.id);
            onDragStart();
          }}
        >
          <span aria-hidden="true">⠿</span>
          <span data-testid="rule-position">{index + 1}</span>
        </span>
      </td>
      <td>
        <span className={styles.ruleName}>{name}</span>
        {rule.label !== undefined && <code className={`${styles.ruleId} muted`}>{rule.id}</code>}
        <Badge tone={rule.spent ? undefined : 'warn'} state={rule.spent ? 'spent' : 'live'}>
          {rule.spent ? 'spent' : 'live'}
        </Badge>
        {rule.warning && rule.shadow && (
          <p className={styles.ruleWarning} id={warningId} data-shadow={rule.shadow}>
            <strong>{SHADOW_TITLE[rule.shadow]}:</strong> {rule.warning}{' '}
            {index > 0 && (
              <button type="button" className="link" disabled={busy} onClick={onFirst}>
                Move {name} first
              </button>
            )}
          </p>
        )}
      </td>
      <td>
        <span className={styles.ruleTarget} title={TARGET_LABELS[rule.target]}>
          {TARGET_SHORT[rule.target]}
        </span>
        <code>{describeMatch(rule.match)}</code>
      </td>
      <td>{describeAction(rule.action)}</td>
      <td className={styles.scope}>{describeScope(rule)}</td>
      <td className={styles.hits} data-testid="rule-hits" data-hits={rule.hits}>
        {/* Keyed by the count so each new hit replays the flash. */}
        <span key={rule.hits} className={rule.hits > 0 ? styles.hitFlash : undefined}>
          {describeHits(rule)}
        </span>
      </td>
      <td>
        <div className={styles.ruleActions}>
          <button
            type="button"
            className={styles.trigger}
            disabled={rule.spent || triggering}
            title="Send now the request this rule waits for"
            aria-label={`Trigger now: ${named}`}
            onClick={onTrigger}
          >
            {triggering ? 'Sending…' : 'Trigger now'}
          </button>
          <span className={styles.moves}>
            <button
              type="button"
              className="icon-button"
              data-move="up"
              aria-label={`Move ${named} up`}
              title="Move up (Alt+↑)"
              disabled={index === 0}
              onClick={() => onStep('up')}
            >
              ↑
            </button>
            <button
              type="button"
              className="icon-button"
              data-move="down"
              aria-label={`Move ${named} down`}
              title="Move down (Alt+↓)"
              disabled={index === count - 1}
              onClick={() => onStep('down')}
            >
              ↓
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove rule ${named}`}
              title="Remove this rule"
              disabled={removing}
              onClick={onRemove}
            >
              ✕
            </button>
          </span>
        </div>
      </td>
    </tr>
  );
}
