/** Every migration of the traffic log's own database file, in order (numbered apart from the console's). */
import type { Migration } from '../../../store/migrations.js';
import { trafficLogMigration } from './001_traffic.js';
import { trafficSegmentsMigration } from './002_traffic_segments.js';

export const logMigrations: readonly Migration[] = [trafficLogMigration, trafficSegmentsMigration];
