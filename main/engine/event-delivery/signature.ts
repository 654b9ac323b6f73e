/**
 * The event headers and their signature, in the public shape (docs/events.md): the signature is
 * the SHA-256 of the seq id, namespace, type, target type and target value header values, then the
 * client id and the client secret, joined with nothing between them, in base64url without padding.
 * It proves the sender knows the key's secret; it does not cover the body or the household header.
 */
import { createHash } from 'node:crypto';

export interface EventHeaderValues {
  seqId: number;
  namespace: string;
  type: string;
  targetType: string;
  targetValue: string;
  householdId: string;
}

export const EVENT_HEADERS = {
  seqId: 'X-Sonos-Event-Seq-Id',
  namespace: 'X-Sonos-Namespace',
  type: 'X-Sonos-Type',
  targetType: 'X-Sonos-Target-Type',
  targetValue: 'X-Sonos-Target-Value',
  householdId: 'X-Sonos-Household-Id',
  signature: 'X-Sonos-Event-Signature',
} as const;

/** The signature of an event's header values (as sent, or as a receiver read them: the seq id is text there). */
export function eventSignature(
  values: Omit<EventHeaderValues, 'householdId' | 'seqId'> & { seqId: number | string },
  clientId: string,
  clientSecret: string,
): string {
  const hash = createHash('sha256');
  for (const part of [
    String(values.seqId),
    values.namespace,
    values.type,
    values.targetType,
    values.targetValue,
    clientId,
    clientSecret,
  ])
    hash.update(part, 'utf8');
  return hash.digest('base64url');
}

/** Every header of one event, the signature included, named as the public shape names them. */
export function eventHeaders(
  values: EventHeaderValues,
  clientId: string,
  clientSecret: string,
): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    [EVENT_HEADERS.householdId]: values.householdId,
    [EVENT_HEADERS.seqId]: String(values.seqId),
    [EVENT_HEADERS.namespace]: values.namespace,
    [EVENT_HEADERS.type]: values.type,
    [EVENT_HEADERS.targetType]: values.targetType,
    [EVENT_HEADERS.targetValue]: values.targetValue,
    [EVENT_HEADERS.signature]: eventSignature(values, clientId, clientSecret),
  };
}
