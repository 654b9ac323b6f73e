/** Process entry of the command line: runs one command and exits with its code. */
import { main } from './index.js';
import { processIo } from './io.js';

const code = await main(process.argv.slice(2), processIo);
// Exit once stdout has taken everything written to it (a pipe to a slow reader may still hold some).
process.stdout.write('', () => process.exit(code));
