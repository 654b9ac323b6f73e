/** See earlier-install.mjs: the install that worked, kept while `npm ci` runs and put back if it fails. */
export const ASIDE: string;
export function setAside(root: string): string | null;
export function letGo(aside: string): void;
export function putBack(root: string, aside: string): boolean;
export function failedForThisLock(root: string): boolean;
