/** Every migration, in order. A new one gets the next number and is appended here. */
import type { Migration } from '../migrations.js';
import { householdMigration } from './001_household.js';
import { loginMigration } from './002_login.js';
import { queuesMigration } from './003_queues.js';
import { playerMigration } from './004_player.js';
import { faultsTrafficMigration } from './005_faults_traffic.js';
import { trafficSharedBodiesMigration } from './006_traffic_shared_bodies.js';
import { trafficBodiesMigration } from './007_traffic_bodies.js';
import { trafficHeaderBlocksMigration } from './008_traffic_header_blocks.js';
import { trafficWithoutFilterIndexesMigration } from './009_traffic_without_filter_indexes.js';
import { trafficWithoutRequestIndexMigration } from './010_traffic_without_request_index.js';
import { trafficLogFileMigration } from './011_traffic_log_file.js';
import { playerSavedMigration } from './012_player_saved.js';
import { timePlayedCapMigration } from './013_time_played_cap.js';
import { conformanceRunsMigration } from './014_conformance_runs.js';
import { eventCallbacksMigration } from './015_event_callbacks.js';
import { playerViolationsMigration } from './016_player_violations.js';
import { refreshGraceMigration } from './017_refresh_grace.js';
import { playerSavedWindowsMigration } from './018_player_saved_windows.js';
import { queueItemsByPosMigration } from './019_queue_items_by_pos.js';

export const migrations: readonly Migration[] = [
  householdMigration,
  loginMigration,
  queuesMigration,
  playerMigration,
  faultsTrafficMigration,
  trafficSharedBodiesMigration,
  trafficBodiesMigration,
  trafficHeaderBlocksMigration,
  trafficWithoutFilterIndexesMigration,
  trafficWithoutRequestIndexMigration,
  trafficLogFileMigration,
  playerSavedMigration,
  timePlayedCapMigration,
  conformanceRunsMigration,
  eventCallbacksMigration,
  playerViolationsMigration,
  refreshGraceMigration,
  playerSavedWindowsMigration,
  queueItemsByPosMigration,
];
