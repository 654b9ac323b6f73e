/**
 * The Artillery engine (`engines: { cloud-queue: {} }`, scenario `engine: cloud-queue`): each
 * virtual user is one of the console's players, playing a queue for the scenario's seconds of
 * listening, its figures emitted as Artillery custom metrics (metrics.ts). Artillery builds the
 * engine with `(script, ee, helpers)` and runs `createScenario(spec, ee)(context, done)` once per
 * VU (@artilleryio/int-core/lib/runner.js); a VU ends after its play time with its player
 * closed, so no timer outlives it and Artillery exits by itself.
 */
import { emitEnd, emitExchange, emitStart, type MetricEvents } from './metrics.js';
import { playOptions, type RawOptions } from './scenario.js';
import { startVirtualUser } from './virtual-user.js';

export const ENGINE_NAME = 'cloud-queue';

interface ArtilleryScript {
  config: { target?: string; engines?: Record<string, RawOptions | undefined> };
}

interface ArtilleryHelpers {
  template(value: unknown, context: ArtilleryContext): unknown;
}

interface ArtilleryContext {
  vars: Record<string, unknown>;
  _uid?: string;
}

interface ScenarioSpec {
  name?: string;
  flow?: unknown[];
}

type Events = MetricEvents & { emit(event: 'started'): unknown; emit(event: 'error', code: string): unknown };
type Done = (error: Error | null, context: ArtilleryContext) => void;

export class CloudQueueEngine {
  private readonly defaults: RawOptions;
  /** VUs this worker has started: the n-th gets the n-th listener of the seed, as a fleet's player n does. */
  private started = 0;

  constructor(
    script: ArtilleryScript,
    _ee: unknown,
    private readonly helpers: ArtilleryHelpers,
  ) {
    const own = script.config.engines?.[ENGINE_NAME] ?? {};
    this.defaults = { baseUrl: script.config.target, ...own };
  }

  createScenario(spec: ScenarioSpec, ee: Events): (context: ArtilleryContext, done: Done) => void {
    const steps = (spec.flow ?? []).length === 0 ? [{ play: {} }] : spec.flow!;
    return (context, done) => {
      ee.emit('started');
      emitStart(ee);
      void this.runSteps(steps, context, ee).then(
        () => done(null, context),
        (error: Error) => {
          ee.emit('error', `${ENGINE_NAME}.${error.name === 'ScenarioError' ? 'bad_scenario' : 'failed'}`);
          done(error, context);
        },
      );
    };
  }

  private async runSteps(steps: unknown[], context: ArtilleryContext, ee: Events): Promise<void> {
    for (const step of steps) {
      const play = (step as { play?: RawOptions } | null)?.play;
      if (!play || typeof play !== 'object')
        throw scenarioError(`each step of a ${ENGINE_NAME} flow is { play: {...} }, got ${JSON.stringify(step)}`);
      await this.play({ ...this.defaults, ...play }, context, ee);
    }
  }

  /** One player, from its load until its play time is up. */
  private play(raw: RawOptions, context: ArtilleryContext, ee: Events): Promise<void> {
    const vuId = String(context._uid ?? context.vars.$uuid ?? ++this.started);
    const checked = playOptions(this.helpers.template(raw, context) as RawOptions, vuId);
    if (!checked.ok) return Promise.reject(scenarioError(checked.message));
    const { options } = checked;
    const user = startVirtualUser({
      playerId: `artillery-${vuId}`,
      playerNumber: ++this.started,
      queueBaseUrl: options.queueBaseUrl,
      ...(options.authorization ? { authorization: options.authorization } : {}),
      speed: options.speed,
      seed: options.seed,
      rates: options.rates,
      onExchange: (exchange) => emitExchange(ee, exchange),
    });
    // A plain (ref'd) wall timer: the VU is work Artillery waits for, unlike the engine clock's own.
    return new Promise<void>((resolve) => setTimeout(resolve, (options.seconds * 1_000) / options.speed)).then(() => {
      // The state its play time ended in; what it had out is then waited for and counted.
      emitEnd(ee, user.state);
      return user.end();
    });
  }
}

function scenarioError(message: string): Error {
  const error = new Error(message);
  error.name = 'ScenarioError';
  return error;
}
