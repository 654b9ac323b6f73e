import { describe, expect, it } from 'vitest';
import { controlPaths } from './paths.js';

describe('control API path spellings (docs/contract/console.md §3)', () => {
  it('accepts the :1 paths and the same paths without it', () => {
    expect(controlPaths('/groups/:groupId/playback:1/play')).toEqual([
      '/groups/:groupId/playback::1/play',
      '/groups/:groupId/playback/play',
    ]);
  });

  it('accepts session commands under /sessions too', () => {
    expect(controlPaths('/playbackSessions/:sessionId/playbackSession:1/loadCloudQueue')).toEqual([
      '/playbackSessions/:sessionId/playbackSession::1/loadCloudQueue',
      '/playbackSessions/:sessionId/playbackSession/loadCloudQueue',
      '/sessions/:sessionId/playbackSession::1/loadCloudQueue',
      '/sessions/:sessionId/playbackSession/loadCloudQueue',
    ]);
  });

  it('leaves paths without a version alone', () => {
    expect(controlPaths('/households')).toEqual(['/households']);
  });
});
