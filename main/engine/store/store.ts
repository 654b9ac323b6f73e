/**
 * The engine's persistent state: one SQLite connection to the console's database and the traffic
 * log's (a file of its own, see `traffic-log.ts`), migrated on open, with one repository per noun.
 * Areas of the engine take the repositories they need, never the raw database.
 */
import { closeDatabase, openDatabase, transactor, type DatabaseLocation, type SqliteDatabase } from './database.js';
import { claimDataDir, type DataDirClaim } from './data-dir-lock.js';
import { migrate } from './migrations.js';
import { migrations } from './migrations/index.js';
import { attachTrafficLog, detachTrafficLog, type TrafficLogRecovery } from './traffic-log.js';
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
import { ScenarioRepository } from './repositories/scenarios.js';
import { TrafficRepository } from './repositories/traffic.js';
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
  /** Set when the traffic log on disk could not be used: put aside and started anew, or kept in memory. */
  readonly trafficLogRecovery: TrafficLogRecovery;
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
  readonly faultRules: FaultRuleRepository;
  readonly traffic: TrafficRepository;
  readonly scenarios: ScenarioRepository;
  /** Runs `work` in one transaction: all of it is stored, or none. */
  transaction<T>(work: () => T): T;
  close(): void;
}

export interface StoreLocation extends DatabaseLocation {
  /** What kind of console this is, in a word ('serve'), for a second console that is refused. */
  consoleKind?: string;
}

export function openStore(location: StoreLocation, now: number = Date.now()): Store {
  // Claimed before the database opens, given back once it is closed (see data-dir-lock.ts). A
  // DataDirInUseError goes to the host as thrown, for it to print: the database was never opened.
  const claim = location.dataDir === null ? null : claimDataDir(location.dataDir, location.nativeBinding, location.consoleKind);
  try {
    return openClaimed(location, now, claim);
  } catch (error) {
    claim?.release();
    throw error;
  }
}

function openClaimed(location: DatabaseLocation, now: number, claim: DataDirClaim | null): Store {
  const db = openDatabase(location);
  try {
    // The log first: the console's migration 11 moves its rows there.
    const trafficLogRecovery = attachTrafficLog(db, location.dataDir, now);
    const version = migrate(db, migrations, now);
    return {
      db,
      dataDir: location.dataDir,
      schemaVersion: version,
      trafficLogRecovery,
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
      faultRules: new FaultRuleRepository(db),
      traffic: new TrafficRepository(db),
      scenarios: new ScenarioRepository(db),
      transaction: transactor(db),
      close: () => {
        try {
          closeConnection(db);
        } finally {
          claim?.release();
        }
      },
    };
  } catch (error) {
    closeConnection(db);
    throw error;
  }
}

/** The traffic log first (synced, its journal gone: see `detachTrafficLog`), then the database. */
function closeConnection(db: SqliteDatabase): void {
  try {
    detachTrafficLog(db);
  } finally {
    closeDatabase(db);
  }
}
