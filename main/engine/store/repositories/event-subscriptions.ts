/**
 * Event subscriptions (migration 015): one row per key, namespace and target, with the sequence id
 * of the newest event made for it. Deleting a key (or its integration) deletes its rows.
 */
import type { EventTargetType, SubscriptionNamespace } from '../../api/events/deliveries.js';
import type { SqliteDatabase } from '../database.js';

export interface EventSubscription {
  id: string;
  keyId: string;
  /** The key's integration (read with the row, not stored in it). */
  integrationId: string;
  householdId: string;
  namespace: SubscriptionNamespace;
  targetType: EventTargetType;
  targetValue: string;
  lastSeqId: number;
  createdAt: number;
}

interface Row {
  id: string;
  key_id: string;
  integration_id: string;
  household_id: string;
  namespace: string;
  target_type: string;
  target_value: string;
  last_seq_id: number;
  created_at: number;
}

const toSubscription = (row: Row): EventSubscription => ({
  id: row.id,
  keyId: row.key_id,
  integrationId: row.integration_id,
  householdId: row.household_id,
  namespace: row.namespace as SubscriptionNamespace,
  targetType: row.target_type as EventTargetType,
  targetValue: row.target_value,
  lastSeqId: row.last_seq_id,
  createdAt: row.created_at,
});

const SELECT = 'SELECT s.*, k.integration_id FROM event_subscriptions s JOIN client_keys k ON k.id = s.key_id';

export class EventSubscriptionRepository {
  private readonly everything;
  private readonly byIntegration;
  private readonly one;
  private readonly insert;
  private readonly remove;
  private readonly seq;

  constructor(db: SqliteDatabase) {
    this.everything = db.prepare<[], Row>(`${SELECT} ORDER BY s.created_at, s.rowid`);
    this.byIntegration = db.prepare<[string], Row>(
      `${SELECT} WHERE k.integration_id = ? ORDER BY s.created_at, s.rowid`,
    );
    this.one = db.prepare<[string, string, string], Row>(
      `${SELECT} WHERE s.key_id = ? AND s.namespace = ? AND s.target_value = ?`,
    );
    this.insert = db.prepare<[string, string, string, string, string, string, number]>(
      `INSERT INTO event_subscriptions (id, key_id, household_id, namespace, target_type, target_value, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(key_id, namespace, target_value) DO NOTHING`,
    );
    this.remove = db.prepare<[string]>('DELETE FROM event_subscriptions WHERE id = ?');
    this.seq = db.prepare<[string], { last_seq_id: number }>(
      'UPDATE event_subscriptions SET last_seq_id = last_seq_id + 1 WHERE id = ? RETURNING last_seq_id',
    );
  }

  list(): EventSubscription[] {
    return this.everything.all().map(toSubscription);
  }

  listByIntegration(integrationId: string): EventSubscription[] {
    return this.byIntegration.all(integrationId).map(toSubscription);
  }

  find(keyId: string, namespace: SubscriptionNamespace, targetValue: string): EventSubscription | undefined {
    const row = this.one.get(keyId, namespace, targetValue);
    return row && toSubscription(row);
  }

  /** The subscription, made if it was not there (a second subscribe changes nothing). */
  create(subscription: Omit<EventSubscription, 'integrationId' | 'lastSeqId'>): EventSubscription {
    const { id, keyId, householdId, namespace, targetType, targetValue, createdAt } = subscription;
    this.insert.run(id, keyId, householdId, namespace, targetType, targetValue, createdAt);
    return this.find(keyId, namespace, targetValue)!;
  }

  delete(id: string): boolean {
    return this.remove.run(id).changes > 0;
  }

  /** The next sequence id of a subscription (1 for its first event); null when it is gone. */
  nextSeqId(id: string): number | null {
    return this.seq.get(id)?.last_seq_id ?? null;
  }
}
