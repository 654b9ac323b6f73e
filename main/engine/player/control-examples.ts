/**
 * Example requests for the command bar: the control API calls an integration makes,
 * in the order it makes them (docs/contract/console.md §3), filled with what this console holds:
 * a group's id, the session its player has (if any), and the first queue's base URL,
 * httpAuthorization and first item. What is not there yet stays a `{placeholder}` with a note
 * saying which example makes it.
 */
import type { ControlExample } from '../api/commands/player.js';
import type { GroupView } from '../api/types.js';
import type { QueueSummary } from '../api/queue-types.js';

export interface ControlExampleSources {
  groups(): GroupView[];
  /** The session of the group's player, if it has one. */
  sessionOf(groupId: string): string | null;
  queues(): QueueSummary[];
  firstItemId(queueId: string): string | null;
}

const API = '/api/v1';

export function controlExamples(sources: ControlExampleSources, groupId?: string): ControlExample[] {
  const groups = sources.groups();
  const group = groups.find((g) => g.id === groupId) ?? groups[0];
  const householdId = group?.householdId ?? '{householdId}';
  const gid = group?.id ?? '{groupId}';
  const session = group ? sources.sessionOf(group.id) : null;
  const sid = session ?? '{sessionId}';
  const noSession =
    session === null
      ? { note: 'create a session first (the createSession example): its answer\u2019s sessionId goes here' }
      : {};
  const queue = sources.queues()[0];
  const itemId = queue ? sources.firstItemId(queue.id) : null;
  const sessionPath = `${API}/playbackSessions/${enc(sid)}/playbackSession`;
  const groupPath = `${API}/groups/${enc(gid)}`;
  const examples: ControlExample[] = [
    { id: 'households', label: 'List households', method: 'GET', path: `${API}/households` },
    {
      id: 'groups',
      label: 'List groups and players',
      method: 'GET',
      path: `${API}/households/${enc(householdId)}/groups`,
    },
    {
      id: 'createSession',
      label: 'Create a playback session',
      method: 'POST',
      path: `${groupPath}/playbackSession`,
      body: { appId: 'com.example.app', appContext: 'console-example' },
    },
    {
      id: 'loadCloudQueue',
      label: 'Load a cloud queue and play',
      method: 'POST',
      path: `${sessionPath}/loadCloudQueue`,
      body: queue
        ? { queueBaseUrl: queue.queueBaseUrl, httpAuthorization: queue.httpAuthorization, playOnCompletion: true }
        : { queueBaseUrl: '{queueBaseUrl}', playOnCompletion: true },
      ...(queue ? noSession : { note: 'create a queue first (Queues): its base URL and httpAuthorization go here' }),
    },
    {
      id: 'refreshCloudQueue',
      label: 'Refresh the cloud queue',
      method: 'POST',
      path: `${sessionPath}/refreshCloudQueue`,
      ...noSession,
    },
    {
      id: 'skipToItem',
      label: 'Skip to an item',
      method: 'POST',
      path: `${sessionPath}/skipToItem`,
      body: { itemId: itemId ?? '{itemId}', playOnCompletion: true },
      ...(itemId === null ? { note: 'an item id of the queue loaded goes here' } : noSession),
    },
    { id: 'playbackStatus', label: 'Playback status', method: 'GET', path: `${groupPath}/playback` },
    { id: 'play', label: 'Play', method: 'POST', path: `${groupPath}/playback/play` },
    { id: 'pause', label: 'Pause', method: 'POST', path: `${groupPath}/playback/pause` },
    {
      id: 'skipToNextTrack',
      label: 'Skip to the next track',
      method: 'POST',
      path: `${groupPath}/playback/skipToNextTrack`,
    },
    { id: 'metadata', label: 'Playback metadata', method: 'GET', path: `${groupPath}/playbackMetadata` },
    {
      id: 'setVolume',
      label: 'Set the group volume',
      method: 'POST',
      path: `${groupPath}/groupVolume`,
      body: { volume: 30 },
    },
    {
      id: 'subscribePlayback',
      label: 'Subscribe to playback events',
      method: 'POST',
      path: `${groupPath}/playback/subscription`,
    },
  ];
  return examples;
}

function enc(value: string): string {
  // A placeholder stays readable; ids the console makes need no escaping, anything else gets it.
  return /^\{\w+\}$/.test(value) ? value : encodeURIComponent(value);
}
