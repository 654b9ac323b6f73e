/** See user-cache.mjs: the user's cache folder for what one clone leaves the next. */
export function userCacheFolder(name: string, env?: Record<string, string | undefined>): string | null;
export function chosenCacheFolder(
  variable: string,
  name: string,
  env?: Record<string, string | undefined>,
): string | null;
export function writeAside(file: string, write: (partial: string) => boolean): boolean;
