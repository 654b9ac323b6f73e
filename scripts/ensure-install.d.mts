/** See ensure-install.mjs: `npm ci` on a fresh clone, with better-sqlite3's binary kept between installs. */
export function installIsCurrent(): boolean;
export function ensureInstall(): void;
export function wasCompiled(packageDir: string): boolean;
export function sqliteOutcome(kept: string | null, compiled: boolean): 'keep' | 'took the kept binary' | 'downloaded';
export const PREBUILD_RC: string;
export function offerLocalPrebuilds(cache: string | null, folder?: string): string | null;
