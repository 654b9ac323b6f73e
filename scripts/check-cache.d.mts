/** See check-cache.mjs: the typecheck's and ESLint's caches, kept between clones on one machine. */
export interface JobCache {
  file: string;
  relocate: boolean;
  flags(file: string): string[];
}
export interface CachedJob {
  name: string;
  command: string;
  args: string[];
  cache: JobCache;
}
export interface CachePlaces {
  root: string;
  project: string;
  user: string;
}
export const PROJECT_CACHE: string;
export const ROOT_MARK: string;
export function checkCachePlaces(root: string, env?: Record<string, string | undefined>): CachePlaces | null;
export function typecheckJob(name: string, project: string): CachedJob;
export function lintJob(name: string, args: string[]): CachedJob;
export function argsOf(job: { args: string[]; cache?: JobCache }, places: CachePlaces | null): string[];
export function relocated(text: string, from: string, to: string): string;
export function restore(places: CachePlaces, cache: JobCache): boolean;
export function keep(places: CachePlaces, cache: JobCache, since: number): boolean;
