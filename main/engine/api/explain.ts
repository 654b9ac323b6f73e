/**
 * The problems worth telling about an input its schema refused: one per place, the first of them
 * said in the error's message. A union whose members are
 * objects tagged by a literal `type` (scenario steps, fault actions) is explained by the member
 * the value names, not by whichever member the validator tried first: a clock step with a
 * negative `advanceMs` is told "must be >= 0", not "must have required properties rule".
 */
import type { TSchema } from 'typebox';
import type { Validator } from 'typebox/compile';
import { compileLoaded } from './lazy-typebox.js';
import { isObject } from './is-object.js';

export interface InputProblem {
  path: string;
  message: string;
}

type Node = {
  anyOf?: TSchema[];
  properties?: Record<string, TSchema>;
  items?: TSchema;
  type?: unknown;
  const?: unknown;
};

/**
 * Each schema's compiled validator, made once: the interpreted Value.Check and Value.Errors took
 * 9.5 s of CPU to explain one bad item among 100,000, every listener held meanwhile. Explaining
 * follows a check that refused, so the compiler is loaded by then (lazy-typebox.ts).
 */
const validators = new WeakMap<TSchema, Validator>();
function validatorOf(schema: TSchema): Validator {
  let validator = validators.get(schema);
  if (!validator) validators.set(schema, (validator = compileLoaded(schema)));
  return validator;
}

/**
 * The schema with its properties and items accepting anything: its errors are the level's own
 * (a required property missing, too many items), found without walking 100,000 items again.
 */
const ownLevels = new WeakMap<TSchema, TSchema>();
function ownLevelOf(schema: TSchema): TSchema {
  const node = schema as Node;
  if (!node.properties && !node.items) return schema;
  let own = ownLevels.get(schema);
  if (!own) {
    own = { ...schema } as TSchema;
    const ownNode = own as Node;
    if (node.properties)
      ownNode.properties = Object.fromEntries(Object.keys(node.properties).map((key) => [key, {} as TSchema]));
    if (node.items) ownNode.items = {} as TSchema;
    ownLevels.set(schema, own);
  }
  return own;
}

/** A plain answer: the validator's type guard would narrow what it refused to `never`. */
const passes = (schema: TSchema, value: unknown): boolean => validatorOf(schema).Check(value);

/** The `type` tag of each member, when every member of the union has one. */
function tagsOf(members: TSchema[]): string[] | null {
  const tags = members.map((member) => (member as Node).properties?.type as Node | undefined).map((tag) => tag?.const);
  return tags.every((tag): tag is string => typeof tag === 'string') ? tags : null;
}

/**
 * Every problem worth telling (the first `limit` of them), one per place, in the order of the
 * schema's properties: a form can mark all its refused fields at once. The validator's own list
 * does not serve: a tagged union adds a "must be equal to constant" for each member the value did
 * not name, and the list stops at eight, so a field after a wrong action went unmentioned.
 */
export function explainAll(schema: TSchema, value: unknown, path = '', limit = Infinity): InputProblem[] {
  if (passes(schema, value)) return [];
  const node = schema as Node;
  const literals = node.anyOf?.map((member) => (member as Node).const);
  if (literals?.every((literal) => typeof literal === 'string' || typeof literal === 'number')) {
    return [{ path: path || '/', message: `must be one of ${literals.join(', ')}` }];
  }
  if (node.anyOf && isObject(value)) {
    const tags = tagsOf(node.anyOf);
    if (tags) {
      const member = node.anyOf[tags.indexOf(value.type as string)];
      if (!member) return [{ path: `${path}/type`, message: `must be one of ${tags.join(', ')}` }];
      return explainAll(member, value, path, limit);
    }
  }
  // Pushed one by one and cut at `limit`: a file of 100,000 items each with a bad field would
  // otherwise spread 100,000 problems as arguments (past the stack) and explain every one.
  const deeper: InputProblem[] = [];
  const add = (problems: InputProblem[]) => {
    for (const problem of problems) if (deeper.length < limit) deeper.push(problem);
  };
  if (node.properties && isObject(value)) {
    for (const [key, child] of Object.entries(node.properties)) {
      if (key in value && deeper.length < limit)
        add(explainAll(child, value[key], `${path}/${key}`, limit - deeper.length));
    }
  }
  if (node.items && Array.isArray(value)) {
    for (let index = 0; index < value.length && deeper.length < limit; index++)
      add(explainAll(node.items, value[index], `${path}/${index}`, limit - deeper.length));
  }
  if (deeper.length >= limit) return deeper;
  // Its properties and items that fail are explained above, and when none does, what fails is
  // this level itself: either way only its own errors are wanted.
  const errors = validatorOf(ownLevelOf(schema)).Errors(value);
  // This level's own errors (a required property missing) come after the deeper ones.
  const own = errors.filter((e) => e.instancePath === '').map((e) => ({ path: path || '/', message: said(e.message) }));
  if (deeper.length) return [...deeper, ...own].slice(0, limit);
  // Nothing deeper to blame: the deepest of this level's own errors.
  const deepest = errors.reduce<(typeof errors)[number] | undefined>(
    (best, e) => (!best || e.instancePath.length > best.instancePath.length ? e : best),
    undefined,
  );
  return [
    { path: `${path}${deepest?.instancePath ?? ''}` || '/', message: deepest ? said(deepest.message) : 'is not valid' },
  ];
}

/**
 * The validator's message in the words of the one who wrote the input: a field the schema does not
 * have is checked against the schema `false`, and "schema is false" said nothing of a misspelt
 * `itemID` (audit).
 */
function said(message: string): string {
  return message === 'schema is false' ? 'is not a field this takes (unknown field: misspelt?)' : message;
}
