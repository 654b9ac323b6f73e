/**
 * A player's answer that came after a later request's (one waited for a connection, say): the two
 * requests' tickets and the engine times they began, the one overtaken first. Counted by the
 * players' requests (player/requests-in-flight.ts), kept by the journal, read by a bundle's
 * builder (bundles/journal-scenario.ts), which cannot replay that order.
 */
export interface RequestCrossing {
  tickets: readonly [number, number];
  at: readonly [number, number];
}
