/** Process entry of the command line: runs one command and exits with its code. */
import { main } from './index.js';
import { processIo } from './io.js';

// A reader gone (`… | head -1`): what is left to say has no one to read it. The command goes on to
// its end, its reports and its exit code, instead of dying on EPIPE with a stack trace (outsider).
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  });

const argv = process.argv.slice(2);
// Only `check` may run itself again under a heap cap (heap-cap.ts): other commands, `serve`'s start
// first, load nothing for it.
const heapCap = argv[0] === 'check' ? await import('./heap-cap.js') : null;
heapCap?.watchParent();
const capped = heapCap ? await heapCap.runHeapCapped(argv) : null;
const code = capped ?? (await main(argv, processIo));
// Exit once stdout has taken everything written to it (a pipe to a slow reader may still hold some).
process.stdout.write('', () => process.exit(code));
