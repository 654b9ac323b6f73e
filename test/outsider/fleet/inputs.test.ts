/**
 * Bad command lines and a server that is not there: exit 2 with a message that says what is wrong,
 * and, for a bad command line, nothing played (no "fleet …" start line, no report written).
 */
import { connect } from 'node:net';
import { describe, expect, test, vi } from 'vitest';
import { describeRun, runFleet } from './run-fleet';

// Each case spawns the built CLI and plays a fleet for seconds of wall time.
vi.setConfig({ testTimeout: 90_000 });

/**
 * A loopback port below the ephemeral range (never handed out for port 0, so no parallel test's
 * server can take it between the check and the run) and off fetch's blocked list; checked refused.
 */
const REFUSING_PORT = 1023;

async function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

const BAD: { args: string[]; says: RegExp }[] = [
  { args: ['--players', '0'], says: /--players must be a whole number from 1/ },
  { args: ['--players=-1'], says: /--players must be a whole number from 1/ },
  { args: ['--players', '-1'], says: /--players must be a whole number from 1/ },
  { args: ['--players', '10000000'], says: /--players must be a whole number from 1 to 20000/ },
  { args: ['--players', '2', '--duration', 'abc'], says: /--duration must be a duration/ },
  { args: ['--players', '2', '--speed', '0'], says: /--speed must be above 0/ },
  { args: ['--players', '2', '--threshold', 'p99<<3'], says: /threshold "p99<<3" is not METRIC OP NUMBER/ },
  { args: ['--players', '2', '--threshold', 'latency<3'], says: /unknown metric "latency"/ },
  { args: ['--players', '2', '--threshold', 'p99<250xs'], says: /p99<250xs/ },
  { args: [], says: /fleet needs --players N/ },
];

describe('fleet with bad inputs', () => {
  test.concurrent.each(BAD.map((bad) => ({ ...bad, name: bad.args.join(' ') || '(no --players)' })))(
    '$name: exit 2, says so, plays nothing',
    async ({ args, says }) => {
      const run = await runFleet(args, 30_000);
      const account = describeRun(run);
      expect(run.code, account).toBe(2);
      expect(run.stderr, account).toMatch(says);
      expect(run.stderr, account).not.toMatch(/^fleet fleet-/m);
      expect(run.report, account).toBeUndefined();
    },
  );

  test('a server that cannot be reached: exit 2, named', async () => {
    const port = REFUSING_PORT;
    expect(await refused(port), `something listens on 127.0.0.1:${port}`).toBe(true);
    const run = await runFleet(
      [`http://127.0.0.1:${port}/queues/q/v2.3/`, '--players', '2', '--duration', '5s'],
      30_000,
    );
    const account = describeRun(run);
    expect(run.code, account).toBe(2);
    expect(run.stderr, account).toMatch(new RegExp(`the server at http://127\\.0\\.0\\.1:${port} cannot be reached`));
  });
});
