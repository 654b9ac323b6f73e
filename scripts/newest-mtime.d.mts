/** See newest-mtime.mjs: the newest modification time under a path. */
export function newestMtime(path: string, options?: { skip?: (name: string) => boolean; filesOnly?: boolean }): number;
