/**
 * Headless entry from source (`npm run serve -- [options]`): the CLI's `serve`, run by tsx in
 * this same process so that SIGINT/SIGTERM reach the engine directly.
 */
import { main } from './cli/index.js';
import { processIo } from './cli/io.js';

const code = await main(['serve', ...process.argv.slice(2)], processIo);
// Exit once stdout has taken everything written to it (a pipe to a slow reader may still hold some).
process.stdout.write('', () => process.exit(code));
