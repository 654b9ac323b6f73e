/** A radio group drawn as segmented buttons: native radios, so arrow keys move and Tab leaves. */
import styles from './SegmentedControl.module.css';

export interface SegmentOption<T extends string> {
  value: T;
  label: string;
  hint?: string;
}

export interface SegmentedControlProps<T extends string> {
  /** The group's accessible name. */
  label: string;
  /** The radios' name: one per group on the page. */
  name: string;
  options: SegmentOption<T>[];
  value: T;
  onChange(value: T): void;
}

export function SegmentedControl<T extends string>({
  label,
  name,
  options,
  value,
  onChange,
}: SegmentedControlProps<T>) {
  return (
    <div className={styles.group} role="radiogroup" aria-label={label}>
      {options.map((option) => (
        <label key={option.value} title={option.hint}>
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
          />
          <span>{option.label}</span>
        </label>
      ))}
    </div>
  );
}
