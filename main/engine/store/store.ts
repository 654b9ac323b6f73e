/**
 * The engine's persistent state: one SQLite connection to the console's database, migrated on
 * open, with one repository per noun. Areas of the engine take the repositories they need, never
 * the raw database. The store imports no area it serves: the traffic log, a file of its own on the
 * same connection, is attached by the caller through `TrafficLogAttachment` (lint holds this).
 */
import { join } from 'node:path';
import {
  DATABASE_FILE,
  closeDatabase,
  openDatabase,
  transactor,
  type DatabaseLocation,
  type SqliteDatabase,
} from './database.js';
import { keepCheckpointing } from './checkpoints.js';
import { WalCopier } from './wal-copier.js';
import { keepWalEnd } from './wal-end.js';
import { keepPrivate, prepareDataDir, SQLITE_COMPANIONS, unusableOr } from './data-dir-files.js';
import { LAST_STOP_FILE } from './last-stop.js';
import { HOLDER_FILE, LOCK_FILE, claimDataDir, type DataDirClaim } from './data-dir-lock.js';
import { migrate, type MigrationHooks } from './migrations.js';
import { migrations } from './migrations/index.js';
import { AuthorizationCodeRepository } from './repositories/authorization-codes.js';
import { ClientKeyRepository } from './repositories/client-keys.js';
import { GrantRepository } from './repositories/grants.js';
import { GroupRepository } from './repositories/groups.js';
import { HouseholdRepository } from './repositories/households.js';
import { FaultRuleRepository } from './repositories/fault-rules.js';
import { IntegrationRepository } from './repositories/integrations.js';
import { OAuthFlowRepository } from './repositories/oauth-flows.js';
import { PlayerSavedRepository } from './repositories/player-saved.js';
import { PlayerTransitionRepository } from './repositories/player-transitions.js';
import { PlayerViolationRepository } from './repositories/player-violations.js';
import { ScenarioRepository } from './repositories/scenarios.js';
import { ConformanceRunRepository } from './repositories/conformance-runs.js';
import { PlayerRepository } from './repositories/players.js';
import { QueueItemRepository } from './repositories/queue-items.js';
import { QueueRepository } from './repositories/queues.js';
import { RedirectUriRepository } from './repositories/redirect-uris.js';
import { SettingsRepository } from './repositories/settings.js';
import { TimePlayedRepository } from './repositories/time-played.js';
import { TokenRepository } from './repositories/tokens.js';
import { UserRepository } from './repositories/users.js';

export interface Store {
  readonly db: SqliteDatabase;
  readonly dataDir: string | null;
  readonly schemaVersion: number;
  readonly settings: SettingsRepository;
  readonly households: HouseholdRepository;
  readonly groups: GroupRepository;
  readonly players: PlayerRepository;
  readonly users: UserRepository;
  readonly integrations: IntegrationRepository;
  readonly clientKeys: ClientKeyRepository;
  readonly redirectUris: RedirectUriRepository;
  readonly grants: GrantRepository;
  readonly authorizationCodes: AuthorizationCodeRepository;
  readonly tokens: TokenRepository;
  readonly oauthFlows: OAuthFlowRepository;
  readonly queues: QueueRepository;
  readonly queueItems: QueueItemRepository;
  readonly timePlayed: TimePlayedRepository;
  readonly playerTransitions: PlayerTransitionRepository;
  readonly playerSaved: PlayerSavedRepository;
  readonly playerViolations: PlayerViolationRepository;
  readonly faultRules: FaultRuleRepository;
  readonly scenarios: ScenarioRepository;
  readonly conformanceRuns: ConformanceRunRepository;
  /** Runs `work` in one transaction: all of it is stored, or none. */
  transaction<T>(work: () => T): T;
  close(): void;
}

export interface StoreLocation extends DatabaseLocation {
  /** What kind of console this is, in a word ('serve'), for a second console that is refused. */
  consoleKind?: string;
}

/**
 * The traffic log as the store sees it (the engine's is `TrafficLogFile` in traffic/log/file.ts):
 * a database file of its own, attached to the store's connection so that one connection does
 * every read and write. The store knows nothing else of it.
 */
export interface TrafficLogAttachment {
  /** The log's files in a data dir: one there says a console ran here, so a missing database is refused. */
  readonly files: readonly string[];
  /** Attaches the log, brought to its own latest migration, before the console's migrations run. */
  attach(db: SqliteDatabase, dataDir: string | null, now: number): void;
  /** Migration 11: takes the rows and shared bodies the console's database kept before the log had a file. */
  takeTrafficRows(db: SqliteDatabase): void;
  /** Before the connection closes, also when opening failed after `attach`. */
  detach(db: SqliteDatabase): void;
}

/**
 * Opens the console's database; with `trafficLog` (the engine's), the log is attached to the same
 * connection first. Without it (tests of the console's own state) the connection has no `log`.
 */
export function openStore(location: StoreLocation, now: number = Date.now(), trafficLog?: TrafficLogAttachment): Store {
  // Claimed before the database opens, given back once it is closed (see data-dir-lock.ts). A
  // DataDirInUseError goes to the host as thrown, for it to print: the database was never opened.
  const claim =
    location.dataDir === null
      ? null
      : claimPrivately(location.dataDir, location.nativeBinding, location.consoleKind, trafficLog?.files ?? []);
  try {
    return openClaimed(location, now, claim, trafficLog);
  } catch (error) {
    claim?.release();
    throw error;
  }
}

/**
 * The claim in a data dir made (or checked) first, 0700 (docs/contract/console.md §9): the lock
 * would make the folder with the umask's mode. The lock and its record are then made exactly
 * 0600, as the umask may have left them otherwise.
 */
function claimPrivately(
  dataDir: string,
  nativeBinding: string | undefined,
  consoleKind: string | undefined,
  trafficFiles: readonly string[],
): DataDirClaim {
  // Every file the console keeps there, for a folder standing in the way of one (outsider: a
  // folder named console.state, console.sqlite-shm or traffic.sqlite read as damage, or worse).
  const kept = [
    ...[DATABASE_FILE, ...trafficFiles].flatMap((file) => [file, ...SQLITE_COMPANIONS.map((end) => `${file}${end}`)]),
    LOCK_FILE,
    HOLDER_FILE,
    LAST_STOP_FILE,
  ];
  prepareDataDir(dataDir, [DATABASE_FILE, LOCK_FILE], kept);
  let claim: DataDirClaim;
  try {
    claim = claimDataDir(dataDir, nativeBinding, consoleKind);
  } catch (error) {
    throw unusableOr(error, dataDir);
  }
  try {
    keepPrivate(join(dataDir, LOCK_FILE), ['-journal']);
    keepPrivate(join(dataDir, HOLDER_FILE), []);
  } catch (error) {
    claim.release();
    throw unusableOr(error, dataDir);
  }
  return claim;
}

function openClaimed(
  location: DatabaseLocation,
  now: number,
  claim: DataDirClaim | null,
  trafficLog: TrafficLogAttachment | undefined,
): Store {
  const db = openDatabase({ ...location, besides: trafficLog?.files ?? [] });
  try {
    // The log first: the console's migration 11 moves its rows there.
    trafficLog?.attach(db, location.dataDir, now);
    const hooks: MigrationHooks = trafficLog
      ? { takeTrafficRows: (connection) => trafficLog.takeTrafficRows(connection) }
      : {};
    const version = migrate(db, migrations, now, 'main', hooks);
    const checkpoints =
      location.dataDir === null
        ? null
        : keepCheckpointing(db, location.dataDir, { copier: new WalCopier(db.name, location.nativeBinding) });
    const walEnd = location.dataDir === null ? null : keepWalEnd(db, location.dataDir);
    return {
      db,
      dataDir: location.dataDir,
      schemaVersion: version,
      settings: new SettingsRepository(db),
      households: new HouseholdRepository(db),
      groups: new GroupRepository(db),
      players: new PlayerRepository(db),
      users: new UserRepository(db),
      integrations: new IntegrationRepository(db),
      clientKeys: new ClientKeyRepository(db),
      redirectUris: new RedirectUriRepository(db),
      grants: new GrantRepository(db),
      authorizationCodes: new AuthorizationCodeRepository(db),
      tokens: new TokenRepository(db),
      oauthFlows: new OAuthFlowRepository(db),
      queues: new QueueRepository(db),
      queueItems: new QueueItemRepository(db),
      timePlayed: new TimePlayedRepository(db),
      playerTransitions: new PlayerTransitionRepository(db),
      playerSaved: new PlayerSavedRepository(db),
      playerViolations: new PlayerViolationRepository(db),
      faultRules: new FaultRuleRepository(db),
      scenarios: new ScenarioRepository(db),
      conformanceRuns: new ConformanceRunRepository(db),
      transaction: transactor(db),
      close: () => {
        checkpoints?.stop();
        walEnd?.stop();
        try {
          closeConnection(db, trafficLog);
        } finally {
          claim?.release();
        }
      },
    };
  } catch (error) {
    closeConnection(db, trafficLog);
    throw error;
  }
}

/** The traffic log first (it has its own clean stop), then the database. */
function closeConnection(db: SqliteDatabase, trafficLog: TrafficLogAttachment | undefined): void {
  try {
    trafficLog?.detach(db);
  } finally {
    closeDatabase(db);
  }
}
