/** Process entry of the command line: runs one command and exits with its code. */
import { runHeapCapped } from './heap-cap.js';
import { main } from './index.js';
import { processIo } from './io.js';

const argv = process.argv.slice(2);
const code = (await runHeapCapped(argv)) ?? (await main(argv, processIo));
// Exit once stdout has taken everything written to it (a pipe to a slow reader may still hold some).
process.stdout.write('', () => process.exit(code));
