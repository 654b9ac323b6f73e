/**
 * A muted word or line beside what it explains: a field's hint, a count, "Loading…". One look for
 * the whole Check area, so each component's stylesheet keeps only its own.
 */
import type { HTMLAttributes } from 'react';
import styles from './Hint.module.css';

export interface HintProps extends HTMLAttributes<HTMLElement> {
  /** A paragraph of its own rather than words in a line. */
  block?: boolean;
}

export function Hint({ block = false, className, ...rest }: HintProps) {
  const Tag = block ? 'p' : 'span';
  return <Tag {...rest} className={className ? `${styles.hint} ${className}` : styles.hint} />;
}
