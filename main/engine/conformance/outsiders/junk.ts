// Servers that answer junk, drawn at random: a status the route never gives, a body that is no
// JSON or is cut short, JSON of the wrong shape, a header that lies about the body. `check` must
// end against every one in bounded time with a failed case (exit 1) or "cannot reach" (exit 2):
// never a pass, never a crash.
import fc from 'fast-check';
import { correctBehaviour, type Answer, type Behaviour, type Request, type State } from './server';
import type { Variant } from './variant';

export type Junk =
  | { kind: 'status'; status: number }
  | { kind: 'not-json'; text: string }
  | { kind: 'cut-short'; at: number }
  | { kind: 'wrong-shape'; json: unknown }
  /** Says its body is brotli-compressed; it is not. */
  | { kind: 'lying-encoding' }
  | { kind: 'redirect-to-self' }
  /** Switches to websocket, which nothing asked for, and holds the connection. */
  | { kind: 'upgrade' };

const junk: fc.Arbitrary<Junk> = fc.oneof(
  fc.record({
    kind: fc.constant('status' as const),
    status: fc.constantFrom(201, 202, 400, 401, 403, 404, 405, 409, 418, 429, 500, 501, 502, 503, 504),
  }),
  fc.record({ kind: fc.constant('not-json' as const), text: fc.string({ maxLength: 200 }) }),
  fc.record({ kind: fc.constant('cut-short' as const), at: fc.double({ min: 0, max: 0.95, noNaN: true }) }),
  fc.record({
    kind: fc.constant('wrong-shape' as const),
    json: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 })),
  }),
  fc.record({ kind: fc.constant('lying-encoding' as const) }),
  fc.record({ kind: fc.constant('redirect-to-self' as const) }),
  fc.record({ kind: fc.constant('upgrade' as const) }),
);

/**
 * What the server does: each route answers from its own list of junk, in turn. /context answers
 * only junk, so no draw can pass; the other routes may answer correctly between junk.
 */
export interface JunkPlan {
  context: Junk[];
  itemWindow: (Junk | null)[];
  version: (Junk | null)[];
  timePlayed: (Junk | null)[];
}

const sometimesRight = fc.array(fc.option(junk, { freq: 2 }), { minLength: 1, maxLength: 6 });

/**
 * What /context answers: only junk no reading could take for a context. A JSON object of the
 * wrong shape (even `{}`) earns a warning at most (nothing known is no wrong context), and random
 * text may happen to be JSON: with the other routes right, either could pass (review).
 */
const contextJunk: fc.Arbitrary<Junk> = fc.oneof(
  fc.record({
    kind: fc.constant('status' as const),
    status: fc.constantFrom(400, 401, 403, 404, 405, 409, 418, 429, 500, 501, 502, 503, 504),
  }),
  fc.record({ kind: fc.constant('cut-short' as const), at: fc.double({ min: 0, max: 0.95, noNaN: true }) }),
  fc.record({ kind: fc.constant('lying-encoding' as const) }),
  fc.record({ kind: fc.constant('redirect-to-self' as const) }),
  fc.record({ kind: fc.constant('upgrade' as const) }),
);

export const junkPlans: fc.Arbitrary<JunkPlan> = fc.record({
  context: fc.array(contextJunk, { minLength: 1, maxLength: 4 }),
  itemWindow: sometimesRight,
  version: sometimesRight,
  timePlayed: sometimesRight,
});

/** A correct answer made into `j`. */
export function spoiled(j: Junk, correct: Answer, req: Request): Answer {
  const text = correct.json === undefined ? (correct.text ?? '') : JSON.stringify(correct.json);
  switch (j.kind) {
    case 'status':
      return { status: j.status, text: `status ${j.status}` };
    case 'not-json':
      return { status: 200, text: j.text, headers: { 'content-type': 'application/json' } };
    case 'cut-short':
      return {
        status: 200,
        text: text.slice(0, Math.floor(text.length * j.at)),
        headers: { 'content-type': 'application/json' },
      };
    case 'wrong-shape':
      return { status: 200, json: j.json };
    case 'lying-encoding':
      return { status: 200, text, headers: { 'content-type': 'application/json', 'content-encoding': 'br' } };
    case 'redirect-to-self':
      return { status: 302, headers: { location: `${req.route}${req.rawQuery}` } };
    case 'upgrade':
      return { status: 101, upgrade: true };
  }
}

const ROUTES = ['context', 'itemWindow', 'version', 'timePlayed'] as const;

export function junkServer(plan: JunkPlan, name: string): Variant {
  return {
    name,
    expect: 'fail or unreachable',
    rule: 'console.md §8',
    story: JSON.stringify(plan),
    build(token) {
      const b: Behaviour = correctBehaviour(token);
      for (const route of ROUTES) {
        const list = plan[route];
        const correct = b[route];
        let asked = 0;
        b[route] = (req: Request, state: State) => {
          const j = list[asked++ % list.length];
          const answer = correct(req, state);
          return j ? spoiled(j, answer, req) : answer;
        };
      }
      return b;
    },
  };
}
