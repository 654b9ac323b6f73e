/** The package's version. From source (main/cli) and from the package (out/cli) alike, package.json is two folders up. */
import { readFileSync } from 'node:fs';

export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
