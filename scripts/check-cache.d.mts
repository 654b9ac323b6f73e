/** See check-cache.mjs: the typecheck's and ESLint's caches, kept between clones on one machine. */
export interface CachedFile {
  file: string;
  relocate: boolean;
}
export interface CachedJob {
  name: string;
  command: string;
  args: string[];
  cache: CachedFile;
}
export const PROJECT_CACHE: string;
export const ROOT_MARK: string;
export function checkCacheFolder(root: string, env?: Record<string, string | undefined>): string | null;
export function typecheckJob(name: string, project: string): CachedJob;
export function lintJob(name: string, args: string[]): CachedJob;
export function relocated(text: string, from: string, to: string): string;
export function restore(root: string, cache: CachedFile, folder: string | null): boolean;
export function keep(root: string, cache: CachedFile, folder: string | null): boolean;
