/**
 * A credential field: hidden as a password is, with a Show/Hide button beside it to check what
 * was pasted. Nothing here is remembered by the browser (the console holds it in memory only).
 */
import { useState, type Ref } from 'react';
import styles from './SecretInput.module.css';

export interface SecretInputProps {
  id: string;
  /** What the field holds, for the button's name: "Show Authorization". */
  label: string;
  value: string;
  onChange(value: string): void;
  placeholder?: string;
  invalid?: boolean;
  describedBy?: string;
  inputRef?: Ref<HTMLInputElement>;
  autoFocus?: boolean;
  /** How the field sits in its row, from the row's own stylesheet. */
  className?: string;
}

export function SecretInput({
  id,
  label,
  value,
  onChange,
  placeholder,
  invalid = false,
  describedBy,
  inputRef,
  autoFocus,
  className,
}: SecretInputProps) {
  const [shown, setShown] = useState(false);
  return (
    <span className={className ? `${styles.secret} ${className}` : styles.secret}>
      <input
        id={id}
        ref={inputRef}
        type={shown ? 'text' : 'password'}
        autoComplete="off"
        spellCheck={false}
        autoCapitalize="off"
        autoFocus={autoFocus}
        placeholder={placeholder}
        value={value}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
      />
      <button
        type="button"
        aria-controls={id}
        aria-label={`${shown ? 'Hide' : 'Show'} ${label}`}
        onClick={() => setShown(!shown)}
        title={shown ? 'Hide it again' : 'Show what is typed'}
      >
        {shown ? 'Hide' : 'Show'}
      </button>
    </span>
  );
}
