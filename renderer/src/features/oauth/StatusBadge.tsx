/**
 * A grant's, a flow's or a delivery's status as a badge: the word, coloured by what it means
 * (issued and delivered read as good, expiring and retrying as a warning, revoked and dropped as bad).
 */
import { Badge, type BadgeProps } from '../../components/Badge';
import styles from './StatusBadge.module.css';

export function StatusBadge({ status, ...rest }: Omit<BadgeProps, 'className'> & { status: string }) {
  return <Badge {...rest} status={status} className={styles.status} />;
}
