/** See sqlite-prebuild.mjs: better-sqlite3's binary served to its installer from loopback, and kept between installs. */
export const BINARY_PATH: string;
export function prebuildName(version: string): string;
export function packPrebuild(binary: string, tarball: string): boolean;

export interface PrebuildHost {
  /** The environment that makes an install take the binary from here. */
  env: Record<string, string>;
  /** Downloads served: 0 after an install means it compiled the binary instead. */
  readonly served: number;
  /** Stops the host, and takes the download out of npm's cache. */
  close(npmCache: string | null): Promise<void>;
}

export function serveProjectPrebuild(projectRoot: string): Promise<PrebuildHost | null>;
export function binaryCache(env?: Record<string, string | undefined>): string | null;
export function cachedPrebuild(cache: string | null, version: string): string | null;
export function keepPrebuild(cache: string | null, packageDir: string): string | null;
