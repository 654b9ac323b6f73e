/** A queue model over an in-memory store, for tests of the model, ordering and windows. */
import { openStore, type Store } from '../store/store.js';
import { QueueModel } from './queue-model.js';

export interface ModelFixture {
  store: Store;
  model: QueueModel;
  events: { name: string; data: unknown }[];
}

export function modelFixture(now = () => 1_800_000_000_000): ModelFixture {
  const store = openStore({ dataDir: null }, 0);
  const events: ModelFixture['events'] = [];
  const model = new QueueModel({
    store,
    clock: { now },
    emit: (name, data) => events.push({ name, data }),
    cloudQueueUrl: () => 'http://127.0.0.1:1',
  });
  return { store, model, events };
}

/** Tracks named after their number, so a test can tell items apart at a glance. */
export function tracks(count: number, from = 1): { track: { name: string } }[] {
  return Array.from({ length: count }, (_, i) => ({ track: { name: `t${from + i}` } }));
}

/** One random edit of a property test: what, where, how many. */
export interface Edit {
  kind: 'add' | 'addSame' | 'move' | 'remove';
  at: number;
  count: number;
  spot: 'after' | 'start' | 'end';
}

/** Applies one edit to the model and to `expected` (the plain array model). */
export function applyEdit(f: ModelFixture, queueId: string, expected: string[], edit: Edit): void {
  const n = expected.length;
  const target =
    n === 0 || edit.spot === 'start' ? null : edit.spot === 'end' ? expected[n - 1]! : expected[edit.at % n]!;
  if (edit.kind === 'add' || edit.kind === 'addSame') {
    const rounds = edit.kind === 'addSame' ? 30 : 1;
    for (let r = 0; r < rounds; r++) {
      const { itemIds } = f.model.addItems(queueId, tracks(edit.count), target);
      const at = target === null ? 0 : expected.indexOf(target) + 1;
      expected.splice(at, 0, ...itemIds!);
    }
    return;
  }
  if (n === 0) return;
  const picked = [
    ...new Set(Array.from({ length: Math.min(edit.count, n) }, (_, i) => expected[(edit.at + i * 7) % n]!)),
  ];
  if (edit.kind === 'remove') {
    f.model.removeItems(queueId, picked);
    for (const id of picked) expected.splice(expected.indexOf(id), 1);
    return;
  }
  if (target !== null && picked.includes(target)) return;
  f.model.moveItems(queueId, picked, target);
  const inOrder = expected.filter((id) => picked.includes(id));
  const rest = expected.filter((id) => !picked.includes(id));
  const at = target === null ? 0 : rest.indexOf(target) + 1;
  rest.splice(at, 0, ...inOrder);
  expected.splice(0, expected.length, ...rest);
}
