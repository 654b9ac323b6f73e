/**
 * What Artillery requires for `engines: { cloud-queue: {} }`: the engine class. It is built from
 * the console's own player core by `npm run build` (vite.config.mts here); without that build it
 * says so, and Artillery prints the message with its "could not be loaded" warning.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS (package.json "type"), as Artillery requires it */
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const built = join(__dirname, '..', '..', 'out', 'artillery-engine', 'engine.cjs');
if (!existsSync(built))
  throw new Error(
    `artillery-engine-cloud-queue is not built: ${built} is missing. Run \`npm run build\` in the cloud-queue-console checkout first.`,
  );
module.exports = require(built).CloudQueueEngine;
