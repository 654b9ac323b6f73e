import { describe, expect, it } from 'vitest';
import type { FaultPreset } from '@engine-api/commands/faults';
import { FAULT_PRESETS } from '../../../../main/engine/faults/presets';
import { groupPresets } from './preset-groups';

const preset = (id: string, match: FaultPreset['rule']['match']): FaultPreset => ({
  id,
  label: id,
  description: '',
  rule: { target: 'cloudQueue', match, action: { type: 'status', status: 404 } },
});

describe('presets by the request they fail', () => {
  it('puts the presets of one request together, in first-seen order', () => {
    const groups = groupPresets([
      preset('storm', {}),
      preset('skip-404', { method: 'GET', path: '/itemWindow', reason: 'skipNext' }),
      preset('load-404', { method: 'GET', path: '/itemWindow', reason: 'load' }),
      preset('skip-403', { method: 'GET', path: '/itemWindow', reason: 'skipNext' }),
    ]);
    expect(groups.map((g) => [g.title, g.presets.map((p) => p.id)])).toEqual([
      ['every request', ['storm']],
      ['GET /itemWindow reason=skipNext', ['skip-404', 'skip-403']],
      ['GET /itemWindow reason=load', ['load-404']],
    ]);
  });

  it('keeps every preset the engine offers, each itemWindow one scoped by reason', () => {
    const groups = groupPresets(FAULT_PRESETS);
    expect(groups.flatMap((g) => g.presets)).toHaveLength(FAULT_PRESETS.length);
    expect(groups.map((g) => g.title).filter((t) => t.includes('/itemWindow') && !t.includes('reason='))).toEqual([]);
  });
});
