import { describe, expect, it } from 'vitest';
import { DEFAULT_FLEET_FIELDS, OUTAGE_FAULT } from './form';
import { FLEET_FORM_KEY, readFleetForm, writeFleetForm } from './stored-form';

function memory(initial?: string) {
  const map = new Map<string, string>(initial === undefined ? [] : [[FLEET_FORM_KEY, initial]]);
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
  };
}

describe('the stored fleet form', () => {
  it('gives back what was written, except the authorization, which never reaches storage', () => {
    const storage = memory();
    const fields = { ...DEFAULT_FLEET_FIELDS, players: '500', baseUrl: 'http://127.0.0.1:9/q/{player}/' };
    writeFleetForm({ fields: { ...fields, authorization: 'Bearer s3cret' }, faults: [OUTAGE_FAULT] }, storage);
    expect(storage.map.get(FLEET_FORM_KEY)).not.toContain('s3cret');
    expect(readFleetForm(storage)).toEqual({ fields: { ...fields, authorization: '' }, faults: [OUTAGE_FAULT] });
  });

  it('falls back to the defaults on nothing, bad JSON or a wrong shape, field by field', () => {
    expect(readFleetForm(memory())).toEqual({ fields: DEFAULT_FLEET_FIELDS, faults: [] });
    expect(readFleetForm(memory('{not json'))).toEqual({ fields: DEFAULT_FLEET_FIELDS, faults: [] });
    const mixed = JSON.stringify({
      fields: { players: 7, speed: '10', authorization: 'Bearer x' },
      faults: [{ preset: '503-storm', start: '1', duration: '' }, { preset: 1 }, null],
    });
    expect(readFleetForm(memory(mixed))).toEqual({
      fields: { ...DEFAULT_FLEET_FIELDS, speed: '10' },
      faults: [{ preset: '503-storm', start: '1', duration: '' }],
    });
  });

  it('keeps working when storage refuses', () => {
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
    };
    expect(readFleetForm(refusing).fields).toEqual(DEFAULT_FLEET_FIELDS);
    expect(() => writeFleetForm({ fields: DEFAULT_FLEET_FIELDS, faults: [] }, refusing)).not.toThrow();
  });
});
