/** Command handlers of repro bundles. */
import type { CommandHandlers } from '../api/runner.js';
import type { BundleDeps } from './deps.js';
import { exportBundle } from './export.js';
import { importBundle } from './import.js';

export function bundleCommandHandlers(deps: BundleDeps): Pick<CommandHandlers, 'bundles.export' | 'bundles.import'> {
  return {
    'bundles.export': (input) => exportBundle(deps, input),
    'bundles.import': (bundle) => importBundle(deps, bundle),
  };
}
