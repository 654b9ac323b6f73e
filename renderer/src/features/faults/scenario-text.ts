/**
 * A scenario as the editor holds it: JSON text, exactly the body of `POST /admin/api/scenarios`
 * (what CI posts too). Parsing tells where the text breaks; an engine refusal is pointed at the
 * step its path names.
 */
import type { ScenarioDraft } from './templates';

export interface TextProblem {
  message: string;
  /** 1-based, where the JSON breaks. */
  line?: number;
  column?: number;
  /** The same place as a character offset, for the cursor. */
  offset?: number;
  /** The step an engine error names (0-based, as in its path; shown counted from 1). */
  step?: number;
}

export function scenarioToText(draft: ScenarioDraft): string {
  const { id, name, description, steps } = draft;
  return JSON.stringify(
    { ...(id === undefined ? {} : { id }), name, ...(description === undefined ? {} : { description }), steps },
    null,
    2,
  );
}

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, position).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

function offsetOf(text: string, line: number, column: number): number {
  const lines = text.split('\n').slice(0, line - 1);
  return lines.reduce((sum, each) => sum + each.length + 1, 0) + column - 1;
}

export function parseScenarioText(
  text: string,
): { draft: ScenarioDraft; problem?: undefined } | { draft?: undefined; problem: TextProblem } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    // The place is said once, as line and column (the parser says it twice: "at position 26 (line 3 column 15)").
    const said = `Not valid JSON: ${message.replace(/ (in JSON )?at position \d+.*$/, '')}`;
    const at = /line (\d+) column (\d+)/.exec(message);
    if (at) {
      const [line, column] = [Number(at[1]), Number(at[2])];
      return { problem: { message: said, line, column, offset: offsetOf(text, line, column) } };
    }
    const position = /position (\d+)/.exec(message);
    if (!position) return { problem: { message: said } };
    return { problem: { message: said, ...lineAndColumn(text, Number(position[1])), offset: Number(position[1]) } };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problem: { message: 'A scenario is a JSON object: {"name": …, "steps": [ … ]}' } };
  }
  return { draft: value as ScenarioDraft };
}

/** The engine's refusal (`scenarios.save: /steps/3/advanceMs must be >= 0`), with the step it names. */
export function engineProblem(message: string, details: unknown): TextProblem {
  const first = Array.isArray(details) ? (details[0] as { path?: unknown } | undefined) : undefined;
  const path = typeof first?.path === 'string' ? first.path : (/ (\/\S*) /.exec(message)?.[1] ?? '');
  const step = /^\/steps\/(\d+)/.exec(path);
  const said = message.replace(/^scenarios\.save: /, '');
  if (!step) return { message: said };
  // "Step 4: advanceMs must be >= 0": the step is named once, counted from 1 as people count.
  return {
    message: said.replace(/^\/steps\/\d+(\/| )/, (_, sep: string) => (sep === ' ' ? 'the step ' : '')),
    step: Number(step[1]),
  };
}
