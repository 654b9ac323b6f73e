/** A scenario step in one line, as the CLI prints it and names it in a JUnit report. */
import type { ScenarioStep } from '../engine/api/scenario-types.js';

export function describeStep(step: ScenarioStep): string {
  switch (step.type) {
    case 'expect': {
      const parts = [step.state && `state ${step.state}`, step.itemId && `item ${step.itemId}`, step.transitions?.length && `transitions ${step.transitions.join(' → ')}`].filter(Boolean);
      return `expect ${step.playerId}: ${parts.join(', ') || 'any state'}`;
    }
    case 'command':
      return `command ${step.method} ${step.path}`;
    case 'action':
      return `action ${step.action} at ${step.playerId}${step.expectError ? ' (expected to be refused)' : ''}`;
    case 'fault':
      return `fault on ${step.rule.target}: ${step.rule.action.type}${'status' in step.rule.action ? ` ${step.rule.action.status}` : ''}`;
    case 'clearFaults':
      return 'clear fault rules';
    case 'clock':
      return ['clock', step.speed !== undefined && `speed ${step.speed}`, step.advanceMs && `advance ${step.advanceMs} ms`].filter(Boolean).join(' ');
    default:
      // A kind of step this line has no words for yet is named by its type.
      return (step as { type: string }).type;
  }
}
