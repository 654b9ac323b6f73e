/** A scenario step in one line, as the CLI prints it and names it in a JUnit report; engine times and server text made safe to print. */
import type { ScenarioStep } from '../engine/api/scenario-types.js';
import { requestLines } from '../engine/api/request-line.js';

/**
 * Text from a server or a file, safe for a terminal and an XML report: control characters (an
 * escape sequence would rewrite the terminal; XML 1.0 cannot hold most of them), bidi overrides
 * and lone surrogates become U+FFFD.
 */
export function plain(text: string): string {
  return text.replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]/gu, '\ufffd');
}

/** Text of several lines (a message quoting a file or a server), each line made `plain`, the breaks kept. */
export function printable(text: string): string {
  return text.split('\n').map(plain).join('\n');
}

/** Engine time as hours, minutes, seconds and milliseconds: runs jump hours in a second. */
export function engineSpan(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(total / 3_600_000))}:${pad(Math.floor(total / 60_000) % 60)}:${pad(Math.floor(total / 1000) % 60)}.${pad(total % 1000, 3)}`;
}

export function describeStep(step: ScenarioStep): string {
  switch (step.type) {
    case 'expect': {
      const parts = [
        step.state && `state ${step.state}`,
        step.itemId && `item ${step.itemId}`,
        step.transitions?.length && `transitions ${step.transitions.join(' → ')}`,
        step.requests?.length && `requests ${requestLines(step.requests)}`,
      ].filter(Boolean);
      return `expect ${step.playerId}: ${parts.join(', ') || 'any state'}`;
    }
    case 'command':
      return `command ${step.method} ${step.path}`;
    case 'action':
      return `action ${step.action} at ${step.playerId}${step.expectError ? ' (expected to be refused)' : ''}`;
    case 'fault':
      return `fault${step.ref ? ` ${step.ref}` : ''} on ${step.rule.target}: ${step.rule.action.type}${'status' in step.rule.action ? ` ${step.rule.action.status}` : ''}`;
    case 'faultRemove':
      return `remove fault ${step.rule}`;
    case 'faultMove':
      return `move fault ${step.rule} to ${step.toIndex}`;
    case 'faultTrigger':
      return `trigger now: fault ${step.rule}${step.playerId ? ` from ${step.playerId}` : ''}${step.expectError ? ' (expected to be refused)' : ''}`;
    case 'trigger':
      return `send now: ${step.request} at ${step.playerId}${step.expectError ? ' (expected to be refused)' : ''}`;
    case 'queueEdit':
      return `queue edit ${step.command}`;
    case 'clearFaults':
      return 'clear fault rules';
    case 'clock':
      return [
        'clock',
        step.speed !== undefined && `speed ${step.speed}`,
        step.advanceMs && `advance ${step.advanceMs} ms`,
      ]
        .filter(Boolean)
        .join(' ');
  }
}
