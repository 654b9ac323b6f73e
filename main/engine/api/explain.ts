/**
 * The one problem worth telling about an input its schema refused. A union whose members are
 * objects tagged by a literal `type` (scenario steps, fault actions) is explained by the member
 * the value names, not by whichever member the validator tried first: a clock step with a
 * negative `advanceMs` is told "must be >= 0", not "must have required properties rule".
 */
import type { TSchema } from 'typebox';
import Value from 'typebox/value';

export interface InputProblem {
  path: string;
  message: string;
}

type Node = { anyOf?: TSchema[]; properties?: Record<string, TSchema>; items?: TSchema; type?: unknown; const?: unknown };

/** Value.Check as a plain answer: its type guard would narrow what it refused to `never`. */
const passes = (schema: TSchema, value: unknown): boolean => Value.Check(schema, value);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `type` tag of each member, when every member of the union has one. */
function tagsOf(members: TSchema[]): string[] | null {
  const tags = members.map((member) => (member as Node).properties?.type as Node | undefined).map((tag) => tag?.const);
  return tags.every((tag): tag is string => typeof tag === 'string') ? tags : null;
}

export function explainInput(schema: TSchema, value: unknown, path = ''): InputProblem | null {
  if (passes(schema, value)) return null;
  const node = schema as Node;
  const literals = node.anyOf?.map((member) => (member as Node).const);
  if (literals?.every((literal) => typeof literal === 'string' || typeof literal === 'number')) {
    return { path: path || '/', message: `must be one of ${literals.join(', ')}` };
  }
  if (node.anyOf && isRecord(value)) {
    const tags = tagsOf(node.anyOf);
    if (tags) {
      const member = node.anyOf[tags.indexOf(value.type as string)];
      if (!member) return { path: `${path}/type`, message: `must be one of ${tags.join(', ')}` };
      return explainInput(member, value, path);
    }
  }
  if (node.properties && isRecord(value)) {
    for (const [key, child] of Object.entries(node.properties)) {
      if (!(key in value)) continue;
      const problem = explainInput(child, value[key], `${path}/${key}`);
      if (problem) return problem;
    }
  }
  if (node.items && Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const problem = explainInput(node.items, item, `${path}/${index}`);
      if (problem) return problem;
    }
  }
  // Nothing deeper to blame: the deepest of this level's own errors.
  const errors = Value.Errors(schema, value);
  const deepest = errors.reduce<(typeof errors)[number] | undefined>((best, e) => (!best || e.instancePath.length > best.instancePath.length ? e : best), undefined);
  return { path: `${path}${deepest?.instancePath ?? ''}` || '/', message: deepest?.message ?? 'is not valid' };
}
