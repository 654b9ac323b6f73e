// Servers that are unusual but right by docs/contract/platform.md: `check` must pass them (exit 0),
// warnings allowed, because what the platform leaves to a server is never a failure (console.md §8).
import { jsonError, tracks, V2_0_REPORT_ATTRIBUTES, type Answer, type Behaviour, type QueueItem } from './server';
import { editWindow, variant, warning, wrap, type Variant } from './variant';

const C8 = 'console.md §8';

export function htmlError(status: number, message: string): Answer {
  const page = `<!DOCTYPE html><html><head><title>${status}</title></head><body><h1>Error ${status}</h1><p>${message.replace(/[<&>]/g, '')}</p></body></html>`;
  return { status, text: page, headers: { 'content-type': 'text/html; charset=utf-8' } };
}

/**
 * Every window's media URLs signed anew, the n-th window with signature n. A track without a URL
 * (a defect laid on top, composed.ts) is left without one.
 */
function signEachWindow(b: Behaviour, sign: (mediaUrl: string, signature: number) => string): void {
  let signature = 0;
  editWindow(b, (json) => {
    signature += 1;
    for (const item of json.items) {
      const track = item.track as Record<string, unknown>;
      if (typeof track.mediaUrl === 'string') track.mediaUrl = sign(track.mediaUrl, signature);
    }
    return json;
  });
}

/** Changes the playback policies the context announces. */
function policies(b: Behaviour, change: Record<string, unknown>): void {
  wrap(b, 'context', (_req, answer) => {
    const json = answer().json as { playbackPolicies: Record<string, unknown> };
    Object.assign(json.playbackPolicies, change);
    return { status: 200, json };
  });
}

/** 20 short tracks; the first /itemWindow after six final reports is a 503 with `headers` (a pod restart). */
function busyOnceMidAlbum(b: Behaviour, headers: Record<string, string>): void {
  b.items = tracks(20, 1_500);
  let sent503 = false;
  wrap(b, 'itemWindow', (_req, answer, state) => {
    if (sent503 || state.finalReports < 6) return answer();
    sent503 = true;
    return { ...jsonError(503, 'restarting'), headers };
  });
}

export const ODD_IDS = [
  'a b',
  'ü/ñ?é',
  'x&y=z',
  '#hash',
  '100%',
  'plus+sign',
  '🎵',
  'semi;colon',
  'quote"d',
  'back\\slash',
];

export const VALID: Variant[] = [
  variant('baseline', 'pass', C8, 'the plain correct server', () => undefined),
  variant(
    'centred-first-window',
    'pass',
    C8,
    'the first window is centred on the current item (7 of 14), includesBeginningOfQueue false',
    (b) => {
      b.items = tracks(14);
      b.firstIndex = 6;
      b.firstPrevious = true;
    },
  ),
  variant(
    'first-window-mid-queue',
    'pass',
    C8,
    'the first window starts at the current item (5 of 12), nothing before it',
    (b) => {
      b.items = tracks(12);
      b.firstIndex = 4;
    },
  ),
  variant(
    'first-window-at-last-item',
    'pass',
    C8,
    'the session is on the last track: the first window is the 5 before it and it, includesEndOfQueue true',
    (b) => {
      b.items = tracks(10);
      b.firstIndex = 9;
      b.firstPrevious = true;
    },
  ),
  variant(
    'centred-first-window-long-queue',
    'pass',
    C8,
    '150 tracks, the first window centred on track 100 (5 before, 10 after)',
    (b) => {
      b.items = tracks(150, 1_000);
      b.firstIndex = 99;
      b.firstPrevious = true;
    },
  ),
  variant('long-album', 'pass', C8, '400 short tracks: played to the last, no track left unjudged', (b) => {
    b.items = tracks(400, 1_500);
  }),
  variant('odd-ids', 'pass', C8, 'ids with spaces, unicode, URL-special characters and an emoji', (b) => {
    b.items = tracks(ODD_IDS.length).map((item, i) => ({ ...item, id: ODD_IDS[i] }));
  }),
  variant('empty-queue', 'pass', C8, 'a queue with no items: both flags true', (b) => {
    b.items = [];
  }),
  warning(
    variant(
      'empty-queue-flags-false',
      'pass',
      C8,
      'a queue with no items whose window says false for both flags (no first or last item to hold)',
      (b) => {
        b.items = [];
        editWindow(b, (json) => ({ ...json, includesBeginningOfQueue: false, includesEndOfQueue: false }));
      },
    ),
    'item-window.queue-ends',
  ),
  variant('one-item-queue', 'pass', C8, 'a queue of a single track', (b) => {
    b.items = tracks(1);
  }),
  variant('basic-auth', 'pass', 'platform.md §5.7', 'players authenticate with HTTP Basic, not Bearer', (b) => {
    b.authorization = `Basic ${Buffer.from(`player:${b.authorization.slice('Bearer '.length)}`).toString('base64')}`;
  }),
  variant('html-error-pages', 'pass', 'platform.md §7.1', 'every error (401, 400, 404) is an HTML page', (b) => {
    b.error = htmlError;
  }),
  variant(
    'time-played-204-labelled-gzip',
    'pass',
    'console.md §5',
    'reports answered 204 with a Content-Encoding: gzip header (a 204 has no content to decode)',
    (b) => {
      wrap(b, 'timePlayed', (_req, answer) => {
        const sent = answer();
        return sent.status === 204 ? { ...sent, headers: { ...sent.headers, 'content-encoding': 'gzip' } } : sent;
      });
    },
  ),
  variant(
    'json-labelled-html',
    'pass',
    'platform.md §4.3',
    'every JSON answer labelled text/html; charset=iso-8859-1 (a framework default)',
    (b) => {
      const finish = b.finish;
      b.finish = (req, answer, state) => {
        const sent = finish(req, answer, state);
        return sent.json === undefined
          ? sent
          : { ...sent, headers: { ...sent.headers, 'content-type': 'text/html; charset=iso-8859-1' } };
      };
    },
  ),
  variant('time-played-200-empty', 'pass', 'console.md §5', 'reports answered 200 with an empty body', (b) => {
    wrap(b, 'timePlayed', (_req, answer) => {
      const sent = answer();
      return sent.status === 204 ? { status: 200 } : sent;
    });
  }),
  variant(
    'time-played-200-context',
    'pass',
    'console.md §5',
    'reports answered 200 with the context (as later versions allow)',
    (b) => {
      wrap(b, 'timePlayed', (req, answer, state) => {
        const sent = answer();
        return sent.status === 204 ? b.context(req, state) : sent;
      });
    },
  ),
  variant(
    'small-windows',
    'pass',
    'platform.md §4.3',
    'never more than 1 previous and 2 upcoming items, whatever is asked',
    (b) => {
      b.items = tracks(9);
      b.maxPrevious = 1;
      b.maxUpcoming = 2;
    },
  ),
  variant(
    'current-and-next-no-skip-back',
    'pass',
    'platform.md §4.3',
    'every window is the current item and the next, and the context says canSkipBack false',
    (b) => {
      b.maxPrevious = 0;
      b.maxUpcoming = 1;
      wrap(b, 'context', (_req, answer) => {
        const json = answer().json as { playbackPolicies: Record<string, unknown> };
        json.playbackPolicies.canSkipBack = false;
        return { status: 200, json };
      });
    },
  ),
  variant('ignores-reason', 'pass', 'platform.md §4.3', 'reason is not read at all (any value, or none)', (b) => {
    const original = b.itemWindow;
    b.itemWindow = (req, state) => {
      const query = new URLSearchParams(req.query);
      query.set('reason', 'refresh');
      return original({ ...req, query }, state);
    };
  }),
  variant(
    'notify-user-intent',
    'pass',
    'platform.md §4.3',
    'limitedSkips and notifyUserIntent on: the player asks before every skip, pause and play',
    (b) => {
      policies(b, { limitedSkips: true, notifyUserIntent: true });
    },
  ),
  variant(
    'no-skips-no-seeks',
    'pass',
    'platform.md §4.3',
    'canSkip, canSkipBack and canSeek all false: a listener can only listen',
    (b) => {
      policies(b, { canSkip: false, canSkipBack: false, canSeek: false, canSkipToItem: false });
    },
  ),
  variant('short-pause-ttl', 'pass', 'platform.md §3', 'pauseTtlSec 1: any pause suspends the session at once', (b) => {
    policies(b, { pauseTtlSec: 1 });
  }),
  variant('extra-fields', 'pass', 'platform.md §2.5', 'unknown fields in every answer and on every item', (b) => {
    b.items = tracks(8).map((item) => ({
      ...item,
      explicit: false,
      x_vendor: { rank: 3 },
      policies: { canSkip: true },
    }));
    editWindow(b, (json) => ({ ...json, nextPageToken: null, _links: { self: '/itemWindow' } }));
    wrap(b, 'context', (_req, answer) => ({
      ...answer(),
      json: { ...(answer().json as object), experiments: ['a'], analytics: { id: 7 } },
    }));
    wrap(b, 'version', (_req, answer) => ({ ...answer(), json: { ...(answer().json as object), etag: 'W/"1"' } }));
  }),
  variant(
    'retry-after-503-once',
    'pass',
    'platform.md §7.2',
    'the first /version poll is a 503 with Retry-After: 2, then it answers',
    (b) => {
      let sent503 = false;
      wrap(b, 'version', (_req, answer) => {
        if (sent503) return answer();
        sent503 = true;
        return { ...b.error(503, 'warming up'), headers: { 'retry-after': '2' } };
      });
    },
  ),
  variant(
    'retry-after-503-mid-album',
    'pass',
    'platform.md §7.2',
    '20 short tracks: the first /itemWindow after six final reports is a 503 with Retry-After: 2 (a pod restart)',
    (b) => busyOnceMidAlbum(b, { 'retry-after': '2' }),
  ),
  warning(
    variant(
      'bare-503-mid-album',
      'pass',
      'platform.md §7.4',
      '20 short tracks: one background /itemWindow is a 503 without Retry-After (retried in the background; a warning at most)',
      (b) => busyOnceMidAlbum(b, {}),
    ),
    'errors.retry-after',
  ),
  warning(
    variant(
      'unreadable-retry-after',
      'pass',
      'platform.md §7.2',
      '20 short tracks: one background /itemWindow is a 503 with "Retry-After: soon" (read as none: a warning at most)',
      (b) => busyOnceMidAlbum(b, { 'retry-after': 'soon' }),
    ),
    'errors.retry-after',
  ),
  variant(
    'v2.0-strict-reports',
    'pass',
    'platform.md §2.3',
    'a v2.0 base URL whose reports must carry only the v2.0 attributes',
    (b) => {
      b.basePath = '/cloudqueue/v2.0/';
      wrap(b, 'timePlayed', (req, answer) => {
        const parsed = JSON.parse(req.body) as { items?: Record<string, unknown>[] };
        const extra = (parsed.items ?? [])
          .flatMap((item) => Object.keys(item))
          .find((name) => !V2_0_REPORT_ATTRIBUTES.has(name));
        return extra === undefined ? answer() : b.error(400, `items[].${extra} is not a v2.0 attribute`);
      });
    },
  ),
  variant('versionless-base-url', 'pass', 'platform.md §9.4', 'a base URL with no version and a long path', (b) => {
    b.basePath = '/api/cloud-queue/households/h-1/sessions/s-1/';
  }),
  variant(
    'double-slash-base-url',
    'pass',
    'console.md §4',
    'the base URL given ends in "//" and the server tolerates it',
    (b) => {
      b.basePath = '/cq/';
    },
    (served) => `${served}/`,
  ),
  warning(
    variant(
      'path-signed-media-urls',
      'pass',
      'platform.md §4.3',
      'every window signs its mediaUrls anew in the path (a CDN path token before the file)',
      (b) =>
        signEachWindow(b, (mediaUrl, signature) => {
          const url = new URL(mediaUrl);
          url.pathname = `/hdnts=exp=1767225600~hmac=${signature.toString(16).padStart(8, '0')}${url.pathname}`;
          return url.toString();
        }),
    ),
    'item-window.stable-identity',
  ),
  variant('long-queue', 'pass', C8, '150 one-second tracks', (b) => {
    b.items = tracks(150, 1_000);
  }),
  variant(
    'signed-media-urls',
    'pass',
    'platform.md §4.3',
    'every window signs its mediaUrls anew (the play reason may refresh expired URLs)',
    (b) => signEachWindow(b, (mediaUrl, signature) => `${mediaUrl}?sig=${signature}`),
  ),
  variant('same-track-twice', 'pass', C8, 'the same track twice in the queue, under two ids', (b) => {
    b.items[5] = { ...structuredClone(b.items[2] as QueueItem), id: 'item-6' };
  }),
  variant('gzip-answers', 'pass', 'RFC 9110', 'every JSON answer gzip-encoded', (b) => {
    b.finish = (_req, answer) =>
      answer.json === undefined ? answer : { ...answer, headers: { ...answer.headers, 'content-encoding': 'gzip' } };
  }),
  variant('chunked-answers', 'pass', 'RFC 9112', 'every answer streamed in 64-byte chunks, no Content-Length', (b) => {
    b.finish = (_req, answer) => ({ ...answer, chunked: true });
  }),
  variant(
    'drops-kept-connections',
    'pass',
    'RFC 9112 §9.6',
    'behind a proxy that drops a kept connection when a second request comes on it (reports too)',
    (b) => {
      b.oneRequestPerConnection = true;
    },
  ),
  variant(
    'no-durations',
    'pass',
    'platform.md §2.5',
    'tracks carry no durationMillis (the platform does not require one)',
    (b) => {
      for (const item of b.items) delete item.track.durationMillis;
    },
  ),
  variant(
    'hostile-text',
    'pass',
    'platform.md §2.5',
    'track names and the container hold ANSI escapes, "]]>", "</script>" and NUL (names are free text)',
    (b) => {
      b.items.forEach((item, i) => {
        item.track.name = `\u001b[31mRed ${i}\u001b[0m ]]> </script><b>& \u0000 \u202e`;
      });
      wrap(b, 'context', (_req, answer) => {
        const json = answer().json as { container: Record<string, unknown> };
        json.container.name = '\u001b]0;title\u0007 ]]><!-- -->';
        return { status: 200, json };
      });
    },
  ),
  variant('connection-close', 'pass', 'RFC 9112', 'every answer closes its connection', (b) => {
    b.finish = (_req, answer) => ({ ...answer, headers: { ...answer.headers, connection: 'close' } });
  }),
  variant(
    'edited-during-run',
    'pass',
    'platform.md §4.3',
    'right after the first /version poll a track is appended and queueVersion moves on (an edit, a warning at most)',
    (b) => {
      let edited = false;
      wrap(b, 'version', (_req, answer) => {
        const sent = answer();
        if (!edited) {
          edited = true;
          b.items = [...b.items, ...tracks(b.items.length + 1).slice(b.items.length)];
          b.queueVersion = 'qv-2';
        }
        return sent;
      });
    },
  ),
  warning(
    variant('minimal-context', 'pass', C8, '/context answers {} (nothing known: a warning at most)', (b) => {
      wrap(b, 'context', () => ({ status: 200, json: {} }));
    }),
    'context',
  ),
  warning(
    variant('slow-version', 'pass', C8, '/version takes 1.2 s (a warning at most)', (b) => {
      wrap(b, 'version', (_req, answer) => ({ ...answer(), delayMs: 1_200 }));
    }),
    'timing',
  ),
  warning(
    variant(
      'time-played-200-other-json',
      'pass',
      'console.md §5',
      'reports answered 200 {"ok":true} (a warning at most)',
      (b) => {
        wrap(b, 'timePlayed', (_req, answer) => {
          const sent = answer();
          return sent.status === 204 ? { status: 200, json: { ok: true } } : sent;
        });
      },
    ),
    'time-played.update',
    'time-played.final',
  ),
];

/**
 * A valid variant by its name, to lay its freedom on another server (composed.ts): the same change,
 * written once.
 */
export function validVariant(name: string): Variant & { change(b: Behaviour): void } {
  const found = VALID.find((v) => v.name === name);
  if (!found?.change) throw new Error(`no valid variant ${name}`);
  return found as Variant & { change(b: Behaviour): void };
}
