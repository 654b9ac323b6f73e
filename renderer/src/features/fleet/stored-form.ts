/**
 * The fleet form survives a restart: what was last typed (or started) is remembered in
 * localStorage, except the authorization, which is a secret and is never written to disk by the
 * renderer. A stored value of the wrong shape is ignored field by field, never thrown.
 */
import { DEFAULT_FLEET_FIELDS, type FleetFaultDraft, type FleetFields } from './form';

export const FLEET_FORM_KEY = 'cqc-fleet-form';

export interface StoredFleetForm {
  fields: FleetFields;
  faults: FleetFaultDraft[];
}

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>;

const isText = (value: unknown): value is string => typeof value === 'string' && value.length <= 4_000;

function readFaults(value: unknown): FleetFaultDraft[] {
  if (!Array.isArray(value)) return [];
  return value
    .slice(0, 20)
    .filter((row): row is FleetFaultDraft => {
      const r = row as Partial<FleetFaultDraft> | null;
      return !!r && isText(r.preset) && isText(r.start) && isText(r.duration);
    })
    .map(({ preset, start, duration }) => ({ preset, start, duration }));
}

export function readFleetForm(storage: Storage | undefined = globalThis.localStorage): StoredFleetForm {
  const fallback = { fields: DEFAULT_FLEET_FIELDS, faults: [] };
  try {
    const raw = storage?.getItem(FLEET_FORM_KEY);
    if (!raw) return fallback;
    const parsed = JSON.parse(raw) as { fields?: Record<string, unknown>; faults?: unknown };
    const fields = { ...DEFAULT_FLEET_FIELDS };
    for (const key of Object.keys(fields) as (keyof FleetFields)[]) {
      const value = parsed.fields?.[key];
      if (key !== 'authorization' && isText(value)) fields[key] = value;
    }
    return { fields, faults: readFaults(parsed.faults) };
  } catch {
    return fallback;
  }
}

export function writeFleetForm(form: StoredFleetForm, storage: Storage | undefined = globalThis.localStorage): void {
  const { authorization: _secret, ...kept } = form.fields;
  try {
    storage?.setItem(FLEET_FORM_KEY, JSON.stringify({ fields: kept, faults: form.faults }));
  } catch {
    // Storage refused (private mode, quota): the form still works, it is only not remembered.
  }
}
