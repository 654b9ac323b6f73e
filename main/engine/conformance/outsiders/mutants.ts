// Servers with one defect each, and the one case of docs/conformance.md it must fail: every
// defect breaks a MUST of docs/contract/platform.md or console.md §8, nothing the platform allows.
import { jsonError, tracks, type Behaviour, type QueueItem } from './server';
import { editWindow, variant, wrap, type Variant } from './variant';

const P43 = 'platform.md §4.3';
const C8 = 'console.md §8';

const context: Variant[] = [
  variant('context-404', 'context', P43, 'no /context route at all', (b) => {
    wrap(b, 'context', () => jsonError(404, 'no such path'));
  }),
  variant('context-html', 'context', P43, '/context answers a 200 HTML page', (b) => {
    wrap(b, 'context', () => ({
      status: 200,
      text: '<html><body>Context</body></html>',
      headers: { 'content-type': 'text/html' },
    }));
  }),
  variant('context-policy-string', 'context', P43, 'a policy sent as the string "true"', (b) => {
    wrap(b, 'context', (_req, answer) => {
      const json = answer().json as { playbackPolicies: Record<string, unknown> };
      json.playbackPolicies.canSkip = 'true';
      return { status: 200, json };
    });
  }),
  variant('context-negative-interval', 'context', P43, 'a negative update report interval', (b) => {
    wrap(b, 'context', (_req, answer) => {
      const json = answer().json as { reports: Record<string, unknown> };
      json.reports.periodicIntervalMillis = -10_000;
      return { status: 200, json };
    });
  }),
];

const first: Variant[] = [
  variant('first-window-no-flags', 'item-window.first', C8, 'a window without itemId has no includes… flags', (b) => {
    editWindow(b, (json, req) => {
      if (req.query.get('itemId') === null) {
        delete json.includesBeginningOfQueue;
        delete json.includesEndOfQueue;
      }
      return json;
    });
  }),
  variant(
    'first-window-flags-as-strings',
    'item-window.first',
    C8,
    'a window without itemId sends its flags as "true"/"false" strings',
    (b) => {
      editWindow(b, (json, req) =>
        req.query.get('itemId') === null
          ? {
              ...json,
              includesBeginningOfQueue: String(json.includesBeginningOfQueue),
              includesEndOfQueue: String(json.includesEndOfQueue),
            }
          : json,
      );
    },
  ),
];

const sizes: Variant[] = [
  variant('size-extra-upcoming', 'item-window.size-limits', C8, 'one more upcoming item than asked', (b) => {
    const correct = rebind(b);
    b.itemWindow = (req, state) => {
      const upcoming = req.query.get('upcomingWindowSize');
      const query = new URLSearchParams(req.query);
      if (upcoming !== null && /^\d+$/.test(upcoming)) query.set('upcomingWindowSize', String(Number(upcoming) + 1));
      return correct(req, query, state);
    };
  }),
  variant('size-extra-previous', 'item-window.size-limits', C8, 'one more previous item than asked', (b) => {
    const correct = rebind(b);
    b.itemWindow = (req, state) => {
      const previous = req.query.get('previousWindowSize');
      const query = new URLSearchParams(req.query);
      if (previous !== null && /^\d+$/.test(previous)) query.set('previousWindowSize', String(Number(previous) + 1));
      return correct(req, query, state);
    };
  }),
  variant(
    'size-zero-previous-ignored',
    'item-window.size-limits',
    C8,
    'previousWindowSize=0 read as "use the default" (5)',
    (b) => {
      const correct = rebind(b);
      b.itemWindow = (req, state) => {
        const query = new URLSearchParams(req.query);
        if (query.get('previousWindowSize') === '0') query.delete('previousWindowSize');
        return correct(req, query, state);
      };
    },
  ),
  variant(
    'size-zero-upcoming-ignored',
    'item-window.size-limits',
    C8,
    'upcomingWindowSize=0 read as "use the default" (10)',
    (b) => {
      const correct = rebind(b);
      b.itemWindow = (req, state) => {
        const query = new URLSearchParams(req.query);
        if (query.get('upcomingWindowSize') === '0') query.delete('upcomingWindowSize');
        return correct(req, query, state);
      };
    },
  ),
  variant(
    'size-zero-zero-refused',
    'item-window.size-limits',
    C8,
    'a window of 0 and 0 refused with 400 ("nothing to send")',
    (b) => {
      wrap(b, 'itemWindow', (req, answer) =>
        req.query.get('previousWindowSize') === '0' && req.query.get('upcomingWindowSize') === '0'
          ? jsonError(400, 'empty window asked for')
          : answer(),
      );
    },
  ),
  variant(
    'size-zero-zero-empty',
    'item-window.size-limits',
    C8,
    'a window of 0 and 0 around an item answered with no item at all',
    (b) => {
      editWindow(b, (json, req) =>
        req.query.get('itemId') !== null &&
        req.query.get('previousWindowSize') === '0' &&
        req.query.get('upcomingWindowSize') === '0'
          ? { ...json, items: [] }
          : json,
      );
    },
  ),
  variant(
    'size-pads-at-queue-start',
    'item-window.size-limits',
    C8,
    'keeps windows full: previous slots missing at the start become upcoming items',
    (b) => {
      const correct = rebind(b);
      b.itemWindow = (req, state) => {
        const query = new URLSearchParams(req.query);
        const id = query.get('itemId');
        const previous = Number(query.get('previousWindowSize') ?? '5');
        const upcoming = query.get('upcomingWindowSize');
        const index = id === null ? -1 : b.items.findIndex((item) => String(item.id) === id);
        if (index >= 0 && upcoming !== null && /^\d+$/.test(upcoming) && index < previous) {
          query.set('upcomingWindowSize', String(Number(upcoming) + previous - index));
        }
        return correct(req, query, state);
      };
    },
  ),
];

/** The correct /itemWindow, callable with a changed query (for defects in how sizes are read). */
function rebind(b: Parameters<Parameters<typeof variant>[4]>[0]) {
  const original = b.itemWindow;
  return (req: Parameters<typeof original>[0], query: URLSearchParams, state: Parameters<typeof original>[1]) =>
    original({ ...req, query }, state);
}

const centring: Variant[] = [
  variant(
    'centred-on-current-for-skipToItem',
    'item-window.centred',
    'platform.md §4.3',
    'reason=skipToItem: the itemId is checked, but the window is centred on the current (first) item',
    (b) => {
      const original = b.itemWindow;
      b.itemWindow = (req, state) => {
        const sent = original(req, state);
        const first = b.items[0];
        if (sent.status !== 200 || req.query.get('reason') !== 'skipToItem' || first === undefined) return sent;
        const query = new URLSearchParams(req.query);
        query.set('itemId', String(first.id));
        return original({ ...req, query }, state);
      };
    },
  ),
];

const unknown: Variant[] = [
  variant(
    'unknown-item-200',
    'item-window.unknown-item',
    'platform.md §7.1',
    'an unknown itemId answered with the first window',
    (b) => {
      const original = b.itemWindow;
      wrap(b, 'itemWindow', (req, answer, state) => {
        const sent = answer();
        if (sent.status !== 404) return sent;
        const query = new URLSearchParams(req.query);
        query.delete('itemId');
        return original({ ...req, query }, state);
      });
    },
  ),
  variant('unknown-item-400', 'item-window.unknown-item', 'platform.md §7.1', 'an unknown itemId answered 400', (b) => {
    wrap(b, 'itemWindow', (_req, answer) => {
      const sent = answer();
      return sent.status === 404 ? jsonError(400, 'bad itemId') : sent;
    });
  }),
  variant(
    'unknown-item-500',
    'item-window.unknown-item',
    'platform.md §7.1',
    'an unknown itemId crashes the handler (500)',
    (b) => {
      wrap(b, 'itemWindow', (_req, answer) => {
        const sent = answer();
        return sent.status === 404 ? jsonError(500, 'TypeError: cannot read properties of undefined') : sent;
      });
    },
  ),
];

const SIZE_NAMES = ['previousWindowSize', 'upcomingWindowSize'];
/** A window asked for with a size below zero. */
const negativeSize = (query: URLSearchParams) => SIZE_NAMES.some((name) => /^-/.test(query.get(name) ?? ''));
/** A window asked for with a size that is not written as a whole number. */
const nonIntegerSize = (query: URLSearchParams) =>
  SIZE_NAMES.some((name) => {
    const raw = query.get(name);
    return raw !== null && !/^-?\d+$/.test(raw);
  });

/** Answers the windows `asked` picks out with `status` and `message`, the rest as before. */
function refusing(asked: (query: URLSearchParams) => boolean, status: number, message: string) {
  return (b: Behaviour) =>
    wrap(b, 'itemWindow', (req, answer) => (asked(req.query) ? jsonError(status, message) : answer()));
}

const sizeValues: Variant[] = [
  variant(
    'negative-size-500',
    'item-window.negative-size',
    'platform.md §7.1',
    'a negative size crashes the handler (500)',
    refusing(negativeSize, 500, 'RangeError: invalid array length'),
  ),
  variant(
    'negative-size-404',
    'item-window.negative-size',
    'platform.md §7.1',
    'a negative size answered 404, which tells a player to empty its queue',
    refusing(negativeSize, 404, 'no such window'),
  ),
  variant(
    'non-integer-422',
    'item-window.non-integer-size',
    'platform.md §8',
    'a fractional size answered 422 instead of 400',
    refusing(nonIntegerSize, 422, 'size must be an integer'),
  ),
  variant(
    'negative-size-clamped',
    'item-window.negative-size',
    'platform.md §7.1',
    'a negative size read as 0',
    (b) => {
      const original = b.itemWindow;
      b.itemWindow = (req, state) => {
        const query = new URLSearchParams(req.query);
        for (const name of SIZE_NAMES) {
          if (/^-\d+$/.test(query.get(name) ?? '')) query.set(name, '0');
        }
        return original({ ...req, query }, state);
      };
    },
  ),
  variant(
    'non-integer-parseInt',
    'item-window.non-integer-size',
    'platform.md §8',
    'sizes read with parseInt: 1.5 is 1, NaN is the default',
    (b) => {
      const original = b.itemWindow;
      b.itemWindow = (req, state) => {
        const query = new URLSearchParams(req.query);
        for (const name of SIZE_NAMES) {
          const raw = query.get(name);
          if (raw === null) continue;
          const parsed = Number.parseInt(raw, 10);
          if (Number.isNaN(parsed)) query.delete(name);
          else query.set(name, String(parsed));
        }
        return original({ ...req, query }, state);
      };
    },
  ),
  variant(
    'non-integer-500',
    'item-window.non-integer-size',
    'platform.md §8',
    'a fractional size crashes the handler (500)',
    refusing(nonIntegerSize, 500, 'RangeError: invalid array length'),
  ),
];

const ends: Variant[] = [
  variant('end-flag-never', 'item-window.queue-ends', C8, 'includesEndOfQueue is always false', (b) => {
    editWindow(b, (json) => ({ ...json, includesEndOfQueue: false }));
  }),
  variant('begin-flag-always', 'item-window.queue-ends', C8, 'includesBeginningOfQueue is always true', (b) => {
    b.items = tracks(14);
    editWindow(b, (json) => ({ ...json, includesBeginningOfQueue: true }));
  }),
  variant(
    'end-flag-off-by-one',
    'item-window.queue-ends',
    C8,
    'includesEndOfQueue already true when the window reaches the second-to-last item',
    (b) => {
      editWindow(b, (json) => {
        const last = json.items.at(-1);
        const secondToLast = b.items.at(-2);
        return last !== undefined && secondToLast !== undefined && last.id === secondToLast.id
          ? { ...json, includesEndOfQueue: true }
          : json;
      });
    },
  ),
];

const identity: Variant[] = [
  variant(
    'ids-track-id-as-item-id',
    'item-window.ids',
    C8,
    'item ids are track ids, and the album has the same track twice',
    (b) => {
      b.items = tracks(8);
      b.items[5] = structuredClone(b.items[2] as QueueItem);
    },
  ),
  variant(
    'ids-reused-for-another-track',
    'item-window.ids',
    C8,
    'item 7 gets the id of item 3 (a counter reset), naming another track',
    (b) => {
      (b.items[6] as QueueItem).id = (b.items[2] as QueueItem).id;
    },
  ),
  variant(
    'identity-tracks-shifted',
    'item-window.stable-identity',
    C8,
    "windows asked around an item join ids to the next position's track",
    (b) => {
      editWindow(b, (json, req) => {
        if (req.query.get('itemId') === null) return json;
        const items = json.items.map((item) => {
          const index = b.items.findIndex((queued) => queued.id === item.id);
          return { ...item, track: structuredClone((b.items[(index + 1) % b.items.length] as QueueItem).track) };
        });
        return { ...json, items };
      });
    },
  ),
];

const versions: Variant[] = [
  variant('queue-version-missing', 'item-window.queue-version', P43, 'windows carry no queueVersion', (b) => {
    editWindow(b, (json) => {
      delete json.queueVersion;
      return json;
    });
  }),
  variant(
    'queue-version-number',
    'item-window.queue-version',
    P43,
    'queueVersion is a number, in windows and /version alike',
    (b) => {
      editWindow(b, (json) => ({ ...json, queueVersion: 1 }));
      wrap(b, 'version', () => ({ status: 200, json: { queueVersion: 1, contextVersion: 'ctx-1' } }));
    },
  ),
  variant('version-disagrees', 'version', P43, '/version answers another queueVersion than the windows', (b) => {
    wrap(b, 'version', () => ({ status: 200, json: { queueVersion: 'qv-2', contextVersion: 'ctx-1' } }));
  }),
  variant('version-field-misnamed', 'version', P43, '/version answers {"version": …}', (b) => {
    wrap(b, 'version', () => ({ status: 200, json: { version: b.queueVersion } }));
  }),
];

const reasons: Variant[] = [
  variant(
    'reason-window-elsewhere',
    'item-window.reasons',
    P43,
    'skipNext, skipPrev, pause, play and resume answered with a window around another item',
    (b) => {
      const correct = rebind(b);
      b.itemWindow = (req, state) => {
        const query = new URLSearchParams(req.query);
        const id = query.get('itemId');
        const index = id === null ? -1 : b.items.findIndex((item) => String(item.id) === id);
        if (index >= 0 && ['skipNext', 'skipPrev', 'pause', 'play', 'resume'].includes(query.get('reason') ?? ''))
          query.set('itemId', String(b.items[(index + 5) % b.items.length]!.id));
        return correct(req, query, state);
      };
    },
  ),
  variant(
    'reason-skipPrev-refused',
    'item-window.reasons',
    'platform.md §2.4',
    "skipPrev missing from the server's list of reasons",
    (b) => {
      wrap(b, 'itemWindow', (req, answer) =>
        req.query.get('reason') === 'skipPrev' ? jsonError(400, 'unknown reason') : answer(),
      );
    },
  ),
  variant(
    'reason-combined-refused',
    'item-window.reasons',
    'platform.md §9.3',
    'load+queueCompleted (v2.2) refused',
    (b) => {
      wrap(b, 'itemWindow', (req, answer) =>
        /[+ ]/.test(req.query.get('reason') ?? '') ? jsonError(400, 'unknown reason') : answer(),
      );
    },
  ),
];

const reports: Variant[] = [
  variant(
    'time-played-refuses-overlong',
    'time-played.final',
    'platform.md §2.3',
    'a report that played longer than its position refused 400 (the time played is cumulative: a listener goes back)',
    (b) => {
      wrap(b, 'timePlayed', (req, answer) => {
        const { items = [] } = JSON.parse(req.body || '{}') as {
          items?: { durationPlayedMillis?: number; positionMillis?: number }[];
        };
        // A margin for a clock's rounding: only what a listener going back makes.
        const overlong = items.some((item) => (item.durationPlayedMillis ?? 0) > (item.positionMillis ?? 0) + 100);
        return overlong ? jsonError(400, 'durationPlayedMillis is past positionMillis') : answer();
      });
    },
  ),
  variant('time-played-final-refused', 'time-played.final', 'platform.md §2.3', 'final reports answered 400', (b) => {
    wrap(b, 'timePlayed', (req, answer) =>
      req.body.includes('"final"') ? jsonError(400, 'type must be update') : answer(),
    );
  }),
  variant(
    'time-played-final-needs-skip',
    'time-played.final',
    'platform.md §2.3',
    'a final report without skip is refused (skip is optional)',
    (b) => {
      wrap(b, 'timePlayed', (req, answer) =>
        req.body.includes('"final"') && !req.body.includes('"skip"')
          ? jsonError(400, 'items[0].skip is required')
          : answer(),
      );
    },
  ),
  variant(
    'time-played-update-500',
    'time-played.update',
    'platform.md §2.3',
    'update reports crash the handler (500)',
    (b) => {
      wrap(b, 'timePlayed', (req, answer) => (req.body.includes('"update"') ? jsonError(500, 'boom') : answer()));
    },
  ),
];

const auth: Variant[] = [
  variant('wrong-token-403', 'auth.wrong-token', 'platform.md §5.7', 'a wrong token answered 403', (b) => {
    const original = b.authorize;
    b.authorize = (req, state) => {
      const refused = original(req, state);
      return refused === undefined ? undefined : jsonError(403, 'Forbidden');
    };
  }),
  variant('no-auth-check', 'auth.wrong-token', 'platform.md §5.7', 'the token is never checked', (b) => {
    b.authorize = () => undefined;
  }),
  variant(
    'missing-auth-accepted',
    'auth.wrong-token',
    'platform.md §5.7',
    'a request without Authorization is let through; a wrong one is 401',
    (b) => {
      const original = b.authorize;
      b.authorize = (req, state) => (req.headers.authorization === undefined ? undefined : original(req, state));
    },
  ),
  variant(
    'auth-skipped-with-queue-version',
    'auth.wrong-token',
    'platform.md §5.7',
    'a window asked with queueVersion (as players ask most) is served before the token is read: a cache keyed on the query',
    (b) => {
      const original = b.authorize;
      b.authorize = (req, state) =>
        req.route === 'itemWindow' && req.query.has('queueVersion') ? undefined : original(req, state);
    },
  ),
  variant(
    'version-unauthenticated',
    'auth.wrong-token',
    'platform.md §5.7',
    '/version does not check the token',
    (b) => {
      const original = b.authorize;
      b.authorize = (req, state) => (req.route === 'version' ? undefined : original(req, state));
    },
  ),
];

const items: Variant[] = [
  variant('item-missing-mediaUrl', 'item-window.items', C8, 'one track has no mediaUrl', (b) => {
    delete (b.items[4] as QueueItem).track.mediaUrl;
  }),
  variant('item-numeric-ids', 'item-window.items', C8, 'item ids are numbers', (b) => {
    b.items = tracks(8).map((item, i) => ({ ...item, id: i + 1 }));
  }),
  variant('item-negative-duration', 'item-window.items', C8, 'a track with durationMillis -1 (unknown length)', (b) => {
    (b.items[2] as QueueItem).track.durationMillis = -1;
  }),
];

/** A queue of `count` tracks of `durationMillis` whose every /itemWindow is a 500 after `finals` final reports. */
function diesAfter(finals: number, count: number, durationMillis: number) {
  return (b: Behaviour) => {
    b.items = tracks(count, durationMillis);
    wrap(b, 'itemWindow', (_req, answer, state) =>
      state.finalReports >= finals ? jsonError(500, 'session table full') : answer(),
    );
  };
}

const playThrough: Variant[] = [
  variant(
    'dies-after-six-tracks',
    'play-through',
    C8,
    'an album of 20 short tracks: after six final reports every /itemWindow is a 500',
    diesAfter(6, 20, 1_500),
  ),
  variant(
    'dies-after-44-tracks',
    'play-through',
    C8,
    'a 60-track queue: after 44 final reports every /itemWindow is a 500 (past where a capped play stopped)',
    diesAfter(44, 60, 20_000),
  ),
  variant(
    'breaks-after-skip-report',
    'play-through',
    C8,
    'a final report with skip corrupts the session: windows answer 500 from then on',
    (b) => {
      b.items = tracks(20, 1_500);
      let broken = false;
      wrap(b, 'timePlayed', (req, answer) => {
        if (req.body.includes('"skip"')) broken = true;
        return answer();
      });
      wrap(b, 'itemWindow', (_req, answer) => (broken ? jsonError(500, 'skip ledger corrupt') : answer()));
    },
  ),
  variant(
    'current-and-next-only',
    'play-through',
    'platform.md §4.3',
    'every window is the playing item and the next (never a previous one) while the context says canSkipBack true',
    (b) => {
      b.items = tracks(10, 1_500);
      b.maxPrevious = 0;
      b.maxUpcoming = 1;
    },
  ),
  variant(
    'reports-refused-after-ten',
    'play-through',
    'platform.md §2.3',
    'an album of 20 short tracks: from the 11th report on, /timePlayed answers 500 (a full report buffer)',
    (b) => {
      b.items = tracks(20, 1_500);
      let reports = 0;
      wrap(b, 'timePlayed', (_req, answer) => {
        reports += 1;
        return reports > 10 ? jsonError(500, 'report buffer full') : answer();
      });
    },
  ),
];

export const MUTANTS: Variant[] = [
  ...context,
  ...first,
  ...sizes,
  ...centring,
  ...unknown,
  ...sizeValues,
  ...ends,
  ...identity,
  ...versions,
  ...reasons,
  ...reports,
  ...auth,
  ...items,
  ...playThrough,
];
