#!/usr/bin/env node
// The package's command line (`cloud-queue-console`, `cqc`): runs the CLI that `npm run build`
// compiles to out/cli/bin.js, which the packed tarball ships, so an install needs no build step.
import { existsSync } from 'node:fs';

const entry = new URL('../out/cli/bin.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    'cloud-queue-console: the command line is not built (out/cli/bin.js is missing); in a clone of the repository run `npm run build` first\n',
  );
  process.exit(1);
}
await import(entry.href);
