/**
 * Presets grouped by the request they fail: what a failure does depends on the request
 * it hits (a 404 on a load fails the command and the player plays on; on a skip it empties the
 * queue), so the presets for one request sit together under its name, in the engine's order.
 */
import type { FaultPreset } from '@engine-api/commands/faults';
import { describeMatch } from './describe';

export interface PresetGroup {
  /** The request, as the rules list writes a match: `GET /itemWindow reason=refresh`, `every request`. */
  title: string;
  presets: FaultPreset[];
}

export function groupPresets(presets: readonly FaultPreset[]): PresetGroup[] {
  const groups = new Map<string, FaultPreset[]>();
  for (const preset of presets) {
    const title = describeMatch(preset.rule.match);
    groups.set(title, [...(groups.get(title) ?? []), preset]);
  }
  return [...groups].map(([title, grouped]) => ({ title, presets: grouped }));
}
