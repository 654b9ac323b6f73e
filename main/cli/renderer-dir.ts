/**
 * The built console UI that `serve` hands to browsers. From source (`npm run serve`) it is the
 * clone's `out/renderer`; from the package (`out/cli/bin.js`) it sits beside the CLI's build.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const CANDIDATES = [join(here, '../renderer'), join(here, '../../out/renderer')];

export function findRendererBuild(): string | undefined {
  return CANDIDATES.find((dir) => existsSync(join(dir, 'index.html')));
}
