/**
 * The transition table's discipline, checked on the table alone: for one (state, event) the
 * guarded rows exclude each other and the `fallback` rows come after them, in order; each effect
 * that reads its event is named only by rows of the events it takes (effects.ts); a row that
 * makes the user wait for the server says so.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EFFECT_EVENTS } from './effects.js';
import type { PlayerEvent, PlayerEventType } from './events.js';
import { GUARDS, TRANSITIONS, type GuardContext, type Transition } from './transitions.js';
import { DEFAULT_POLICIES } from './wire.js';

/** Every (state, event) with the rows that take it, in table order. */
function groups(): Map<string, Transition[]> {
  const byKey = new Map<string, Transition[]>();
  for (const row of TRANSITIONS) {
    for (const state of row.from) {
      for (const event of row.on) {
        const key = `${state} ${event}`;
        byKey.set(key, [...(byKey.get(key) ?? []), row]);
      }
    }
  }
  return byKey;
}

const bool = fc.boolean();
/**
 * Any guard context, but for what its fields mean by definition (transitions.ts GuardContext):
 * a track waiting at the edge for a load's answer is one that load started at once, and an answer
 * that ends the queue or falls short holds nothing after the playing track.
 */
const guardContext: fc.Arbitrary<GuardContext> = fc
  .record({
    limitedSkips: bool,
    notifyUserIntent: bool,
    playOnCompletion: bool,
    startedAtOnce: bool,
    startedTrackAtEdge: bool,
    answerEndsQueue: bool,
    atEnd: bool,
    atEdge: bool,
    hasNext: bool,
    hasPrevious: bool,
    windowFullyFetched: bool,
    answerFullyFetched: bool,
    queueGoesOn: bool,
    answerHasNext: bool,
    answerFallsShort: bool,
    answerInBackground: bool,
    windowQueued: bool,
    windowExhausted: bool,
    skipPlays: bool,
    currentItemId: fc.constantFrom('item-1', 'item-2', undefined),
  })
  .map(({ limitedSkips, notifyUserIntent, ...rest }) => ({
    ...rest,
    policies: { ...DEFAULT_POLICIES, limitedSkips, notifyUserIntent },
    startedAtOnce: rest.startedAtOnce || rest.startedTrackAtEdge,
    answerEndsQueue: rest.answerEndsQueue && !rest.answerHasNext,
    answerFallsShort: rest.answerFallsShort && !rest.answerHasNext,
  }));

/** An event of `type`, with the fields guards read drawn at random. */
function eventOf(type: PlayerEventType): fc.Arbitrary<PlayerEvent> {
  if (type === 'skipToItem') {
    return fc.record({ itemId: fc.constantFrom('item-1', 'item-2'), metadata: bool }).map(
      ({ itemId, metadata }) =>
        ({
          type,
          params: {
            itemId,
            ...(metadata ? { trackMetadata: { name: 't', mediaUrl: 'https://m.example/t.mp3' } } : {}),
          },
        }) as PlayerEvent,
    );
  }
  if (type === 'skipAnswered') {
    return fc
      .record({
        id: fc.constantFrom('item-1', 'item-2'),
        skipped: fc.constantFrom('skipNext', 'skipPrev', 'skipToItem'),
        plays: bool,
      })
      .map(
        ({ id, skipped, plays }) =>
          ({
            type,
            skipped,
            plays,
            target: { id, track: {} },
            window: { includesBeginningOfQueue: true, includesEndOfQueue: true, queueVersion: 'v', items: [] },
          }) as unknown as PlayerEvent,
      );
  }
  return fc.constant({ type } as PlayerEvent);
}

describe('the transition table', () => {
  const byKey = groups();

  it('lists, for one state and event, the guarded rows first and then the fallbacks, and has no unguarded row that is not a fallback beside others', () => {
    for (const [key, rows] of byKey) {
      const firstFallback = rows.findIndex((row) => row.fallback);
      if (firstFallback !== -1)
        expect(
          rows.slice(firstFallback).every((row) => row.fallback),
          `${key}: ${rows.map((r) => r.id).join(', ')}`,
        ).toBe(true);
      if (rows.length > 1)
        for (const row of rows)
          expect(
            row.guard !== undefined || row.fallback === true,
            `${key}: ${row.id} has no guard and is no fallback`,
          ).toBe(true);
    }
  });

  it('has guarded rows that exclude each other for every state and event, whatever the player knows', () => {
    const multi = [...byKey].filter(([, rows]) => rows.filter((row) => !row.fallback).length > 1);
    expect(multi.length).toBeGreaterThan(10);
    fc.assert(
      fc.property(guardContext, fc.nat(multi.length - 1), fc.context(), (context, pick, log) => {
        const [key, rows] = multi[pick]!;
        const type = key.split(' ')[1] as PlayerEventType;
        const events = fc.sample(eventOf(type), 4);
        for (const event of events) {
          const matching = rows
            .filter((row) => !row.fallback && row.guard && GUARDS[row.guard](context, event))
            .map((row) => row.id);
          log.log(`${key}: ${matching.join(', ')}`);
          if (matching.length > 1) return false;
        }
        return true;
      }),
      { numRuns: 20_000 },
    );
  });

  it('names an effect that reads its event only on rows of the events it takes', () => {
    for (const row of TRANSITIONS) {
      for (const effect of row.effects) {
        const takes = (EFFECT_EVENTS as Partial<Record<string, readonly PlayerEventType[]>>)[effect];
        if (takes) for (const event of row.on) expect(takes, `${row.id}: ${effect} on ${event}`).toContain(event);
      }
    }
  });

  it('marks the rows that make the user wait for the server, and only those', () => {
    for (const row of TRANSITIONS)
      expect(row.waitsForServer === true, row.id).toBe(row.effects.includes('requestUserSkip'));
  });
});
