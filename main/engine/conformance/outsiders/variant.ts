// What an outsider server variant is: a correct server with one change, and the verdict the
// contract (docs/contract/console.md §8) gives it: pass, or fail exactly one case.
import { correctBehaviour, type Answer, type Behaviour, type Request, type State } from './server';

export interface Variant {
  name: string;
  /** What the integrator did, in one line. */
  story: string;
  /** 'pass' for a valid server; otherwise the one case id it must fail. */
  expect: 'pass' | string;
  /** The rule the verdict rests on. */
  rule: string;
  /** Cases that must warn (a valid server may still earn warnings the contract names). */
  warns?: string[];
  build(token: string): Behaviour;
  /** What the variant changes in a server, to apply to another valid one (composed.ts). */
  change?: (b: Behaviour) => void;
  /** The base URL handed to `check`, from the one the server listens at (default: as is). */
  baseUrl?(served: string): string;
}

/** A correct server changed by `change`, which may wrap the handlers it replaces. */
export function variant(
  name: string,
  expect: Variant['expect'],
  rule: string,
  story: string,
  change: (b: Behaviour) => void,
  baseUrl?: Variant['baseUrl'],
): Variant {
  return {
    name,
    expect,
    rule,
    story,
    change,
    build(token) {
      const b = correctBehaviour(token);
      change(b);
      return b;
    },
    ...(baseUrl === undefined ? {} : { baseUrl }),
  };
}

/** The variant, with cases it must warn on. */
export function warning(v: Variant, ...caseIds: string[]): Variant {
  return { ...v, warns: caseIds };
}

export type WindowJson = Record<string, unknown> & { items: Record<string, unknown>[] };

/** Replaces /itemWindow with the correct one passed through `edit` (only 200 answers). */
export function editWindow(b: Behaviour, edit: (json: WindowJson, req: Request, state: State) => unknown): void {
  const original = b.itemWindow;
  b.itemWindow = (req, state) => {
    const answer = original(req, state);
    if (answer.status !== 200) return answer;
    return { ...answer, json: edit(structuredClone(answer.json) as WindowJson, req, state) };
  };
}

/** Wraps one route: `edit` sees the request and the correct answer and returns the one sent. */
export function wrap(
  b: Behaviour,
  route: 'context' | 'itemWindow' | 'version' | 'timePlayed',
  edit: (req: Request, answer: () => Answer, state: State) => Answer,
): void {
  const original = b[route];
  b[route] = (req, state) => edit(req, () => original(req, state), state);
}
