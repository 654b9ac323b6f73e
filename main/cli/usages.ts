/**
 * The one-line usages of the commands whose code is loaded only when they run (index.ts): the
 * program's help lists them without loading run's JUnit builder or check's suite.
 */
export const RUN_USAGE = 'usage: cloud-queue-console run FILE [--junit F] [--json F] [--timeout S] [--allow-host H]…';

export const CHECK_USAGE =
  'usage: cloud-queue-console check BASE_URL [--authorization V] [--timeout S] [--junit F] [--json F] [--html F]';
