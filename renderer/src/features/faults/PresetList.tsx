/**
 * One click per failure case of the seed. Each preset says where it applies: at the console's
 * own server, or inside the player's client (so it fails any cloud queue server, yours too).
 * A preset whose rule is live says so. Presets are grouped by the request they fail, since what a
 * failure does depends on it (preset-groups.ts).
 */
import { useState } from 'react';
import type { FaultPreset } from '@engine-api/commands/faults';
import type { FaultRule, FaultTarget } from '@engine-api/fault-types';
import { SegmentedControl } from '../../components/SegmentedControl';
import { Badge } from '../../components/Badge';
import { useApplyPreset, useFaultPresets, useFaultRules } from '../../queries/faults';
import { TARGET_LABELS } from './describe';
import { groupPresets } from './preset-groups';
import styles from './PresetList.module.css';

const WHERE_HINT: Partial<Record<FaultTarget, string>> = {
  cloudQueue: 'At the console\u2019s cloud queue server',
  player: 'Inside the player\u2019s HTTP client: works against any cloud queue server',
};

export function PresetList() {
  const presets = useFaultPresets().data ?? [];
  const rules = useFaultRules().data ?? [];
  const apply = useApplyPreset();
  const [targets, setTargets] = useState<Record<string, FaultTarget>>({});

  return (
    <>
      {groupPresets(presets).map((group, index) => (
        <div key={group.title} className={styles.presetGroup}>
          <h3 id={`preset-group-${index}`} className={styles.presetGroupTitle}>
            <code>{group.title}</code>
          </h3>
          <ul className={styles.presetList} aria-labelledby={`preset-group-${index}`}>
            {group.presets.map((preset) => (
              <PresetCard
                key={preset.id}
                preset={preset}
                target={targets[preset.id] ?? preset.rule.target}
                onTarget={(target) => setTargets((t) => ({ ...t, [preset.id]: target }))}
                live={rules.filter((r) => isLiveFrom(r, preset)).length}
                pending={apply.isPending && apply.variables?.id === preset.id}
                onInject={(target) => apply.mutate({ id: preset.id, target })}
              />
            ))}
          </ul>
        </div>
      ))}
      {apply.isError && (
        <p role="alert" className="error">
          {apply.error.message}
        </p>
      )}
    </>
  );
}

function isLiveFrom(rule: FaultRule, preset: FaultPreset): boolean {
  return !rule.spent && rule.label !== undefined && rule.label === preset.rule.label;
}

interface CardProps {
  preset: FaultPreset;
  target: FaultTarget;
  onTarget(target: FaultTarget): void;
  live: number;
  pending: boolean;
  onInject(target: FaultTarget): void;
}

function PresetCard({ preset, target, onTarget, live, pending, onInject }: CardProps) {
  const where = [...new Set<FaultTarget>([preset.rule.target, 'player'])].map((value) => ({
    value,
    label: value === 'cloudQueue' ? 'Console server' : TARGET_LABELS[value],
    hint: WHERE_HINT[value],
  }));
  const titleId = `preset-${preset.id}`;
  const descriptionId = `${titleId}-description`;
  return (
    <li className={styles.preset} data-live={live > 0 || undefined} aria-labelledby={titleId}>
      <div className={styles.presetTitle}>
        <strong id={titleId}>{preset.label}</strong>
        {live > 0 && <Badge tone="warn">{live === 1 ? 'live' : `${live} live`}</Badge>}
      </div>
      <div className={styles.presetActions}>
        <SegmentedControl
          label={`Where ${preset.label} applies`}
          name={`where-${preset.id}`}
          options={where}
          value={target}
          onChange={onTarget}
        />
        <button
          type="button"
          className="primary"
          aria-label={`Inject ${preset.label}`}
          aria-describedby={descriptionId}
          disabled={pending}
          onClick={() => onInject(target)}
        >
          {pending ? 'Injecting…' : 'Inject'}
        </button>
      </div>
      <p id={descriptionId} className={`muted ${styles.presetDescription}`} data-testid="preset-description">
        {preset.description}
      </p>
    </li>
  );
}
