/**
 * `createEngine` builds the whole console from its parts, under plain Node: the store, the clock,
 * the command and event tables, and the four listeners. Hosts (Electron, `serve`, tests) get back
 * the command runner, the event bus, the URLs and `close`, and nothing else is global.
 */
import { randomBytes } from 'node:crypto';
import type { EngineStateView, ServiceUrls } from './api/types.js';
import type { TimePlayedRecordView } from './api/queue-types.js';
import { createCommandRunner, type CommandHandlers, type CommandRunner } from './api/runner.js';
import type { CommandName } from './api/commands.js';
import { QueueActivity } from './cloud-queue/activity.js';
import { buildCloudQueueApp } from './cloud-queue/app.js';
import { queueCommands } from './cloud-queue/commands.js';
import { QueueGenerations } from './cloud-queue/generation.js';
import { QueueModel } from './cloud-queue/queue-model.js';
import { EngineClock } from './clock/clock.js';
import { clockCommands } from './clock/commands.js';
import { preferenceCommands } from './console/preferences.js';
import { restoreClock, saveClock } from './clock/persistence.js';
import type { WallClock } from './clock/wall.js';
import { systemWall } from './clock/wall.js';
import { loadConsoleAssets } from './console/assets.js';
import { buildConsoleApp } from './console/app.js';
import { buildControlApp } from './control/app.js';
import { describeAdminApi } from './admin/openapi.js';
import { EventStreams } from './admin/sse.js';
import { EventBus } from './events/bus.js';
import { createEventDelivery } from './event-delivery/index.js';
import { httpDeliveryTransport } from './event-delivery/transport.js';
import { householdCommands } from './household/commands.js';
import { HouseholdEditor } from './household/edits.js';
import { seedDemoData } from './household/seed.js';
import { HouseholdViews } from './household/views.js';
import { DEFAULT_HOST, DEFAULT_PORT, SERVICE_NAMES, boundPort, listenAll, type ServiceApps } from './http/listeners.js';
import type { OpenOAuthWindow } from './login/console/console-flows.js';
import { createLoginService } from './login/service.js';
import { holdStoredSecrets } from './login/stored-secrets.js';
import { faultCommandHandlers } from './faults/commands.js';
import { faultingDeliveryTransport } from './faults/events-transport.js';
import { faultingTransport } from './faults/player-transport.js';
import { FaultRegistry } from './faults/registry.js';
import { injectedStatusOf, loginAuthorizeResponder } from './faults/server-fault.js';
import { AUTHORIZE_PATH } from './login/paths.js';
import { instrumentService } from './traffic/capture.js';
import { openStoreWithTrafficLog } from './traffic/log/index.js';
import { trafficCommandHandlers } from './traffic/commands.js';
import { entryOfExchange } from './traffic/player-exchange.js';
import { TrafficRecorder } from './traffic/recorder.js';
import { EngineWarnings } from './warnings.js';
import { scenarioCommandHandlers } from './scenarios/commands.js';
import { PlayerRequestsInFlight } from './player/requests-in-flight.js';
import { playerExchangeReader } from './scenarios/explain.js';
import { bundleCommandHandlers } from './bundles/commands.js';
import { journaledHandlers } from './journal/commands.js';
import { journalControlCalls } from './journal/control.js';
import { Journal } from './journal/journal.js';
import { lazyPart } from './api/lazy-part.js';
import { keepAliveTransport } from './player/http-transport.js';
import { guardedTransport, type OutboundPolicy } from './http/outbound-guard.js';
import { silentLogger, type Logger } from './log.js';
import { playerCommandHandlers } from './player/commands.js';
import { controlExamples } from './player/control-examples.js';
import { controlCaller } from './player/control-caller.js';
import { PlayerRegistry } from './player/registry.js';
import type { Store } from './store/store.js';
import { KnownSecrets } from './security/known-secrets.js';

export interface EngineOptions {
  /** Loopback host to bind. Default 127.0.0.1. */
  host?: string;
  /** Console port P (login P+1, control P+2, cloud queue P+3); 0 = any free ports. Default 47100. */
  port?: number;
  /** Data folder; null = `--ephemeral` (in memory, nothing written). */
  dataDir: string | null;
  /** Clock speed to start at, overriding the stored one. */
  clockSpeed?: number;
  /** Folder of the built renderer, served to browsers at the console URL. */
  consoleAssetsDir?: string;
  /** better_sqlite3.node built for the running ABI (Electron). */
  nativeBinding?: string;
  /** Fixed admin token (default: a fresh random one per start). */
  adminToken?: string;
  log?: Logger;
  /** The real clock behind the engine clock (tests). */
  wall?: WallClock;
  /** The console's version, for the API description (the package's; hosts know it). */
  version?: string;
  /** What kind of console this is ('serve', 'desktop app'), named to a second console refused on its data dir. */
  consoleKind?: string;
  /** Opens the host's own OAuth window (Electron); without it the renderer opens a tab. */
  openOAuthWindow?: OpenOAuthWindow;
  /** Which hosts players and event deliveries may call (`run FILE`: its own and the allowed); default any. */
  outbound?: OutboundPolicy;
}

export interface Engine {
  readonly urls: ServiceUrls;
  readonly adminToken: string;
  readonly commands: CommandRunner;
  /** Subscriptions, and whether an event would reach anyone now (`wants`). */
  readonly events: Pick<EventBus, 'subscribe' | 'on' | 'wants'>;
  readonly clock: EngineClock;
  readonly dataDir: string | null;
  close(): Promise<void>;
}

export async function createEngine(options: EngineOptions): Promise<Engine> {
  const log = options.log ?? silentLogger;
  const wall = options.wall ?? systemWall;
  const adminToken = options.adminToken ?? randomBytes(32).toString('base64url');
  // Names this run: a page left open across a restart tells by it that what it kept is another run's.
  const startId = randomBytes(9).toString('base64url');
  // The traffic log is attached to the store's connection before the console's migrations run.
  const {
    store,
    traffic,
    recovery: trafficLogRecovery,
  } = openStoreWithTrafficLog(
    { dataDir: options.dataDir, nativeBinding: options.nativeBinding, consoleKind: options.consoleKind },
    wall.now(),
  );
  const closers: (() => void | Promise<void>)[] = [() => store.close()];
  const closeAll = async (): Promise<void> => {
    for (const close of closers.splice(0).reverse()) {
      try {
        await close();
      } catch (error) {
        log.error('while closing', error);
      }
    }
  };

  try {
    const restored = restoreClock(store.settings, wall.now());
    const clock = new EngineClock({
      wall,
      startAt: restored?.now,
      speed: options.clockSpeed ?? restored?.speed ?? 1,
      onTimerError: (error, label) => log.error(`engine timer ${label} failed`, error),
    });
    const persistClock = (): void => saveClock(store.settings, clock.state(), wall.now());
    closers.push(() => {
      persistClock();
      clock.close();
    });
    seedDemoData(store, clock.now());

    const bus = new EventBus();
    closers.push(() => bus.clear());
    const warnings = new EngineWarnings({
      emit: (warning) => bus.emit('engine.warning', warning),
      wallNow: () => wall.now(),
      log,
    });
    if (trafficLogRecovery) {
      const { putAside, because } = trafficLogRecovery;
      const kept = putAside
        ? `it was put aside as ${putAside} and a new one started`
        : 'this run keeps its traffic log in memory';
      warnings.warn('traffic-log', `the traffic log could not be read (${because}); ${kept}`);
    }
    clock.onChange((state) => {
      persistClock();
      bus.emit('clock.changed', state);
    });
    persistClock();

    const faults = new FaultRegistry({ repo: store.faultRules, clock, bus });
    closers.push(() => faults.close());
    // The players' requests under way: a call beginning meanwhile is journaled as racing them,
    // and a replay holds them at this gate until the call that raced them has been made.
    const requestsInFlight = new PlayerRequestsInFlight();
    // Every state-changing call on the engine clock: what a repro bundle's scenario is built from.
    const journal = new Journal({
      requests: requestsInFlight,
      clockRunning: () => clock.speed > 0,
      now: () => clock.now(),
      rules: () => faults.list(),
      lastTransitionSeq: () => store.playerTransitions.lastSeq(),
    });
    closers.push(() => journal.close());
    // Every secret the engine issued or was given, found by value wherever it would be stored.
    const secrets = new KnownSecrets();
    secrets.add(adminToken);
    holdStoredSecrets(secrets, store, clock.now());
    const recorder = new TrafficRecorder({ repo: traffic, settings: store.settings, bus, warnings, secrets });
    closers.push(() => recorder.close());
    // The players' own connections, kept alive between their requests and closed with the engine;
    // a request whose connection fails is never sent again unseen (StaleResend).
    const playerHttp = keepAliveTransport(undefined, options.outbound, 'none');
    closers.push(() => playerHttp.close());
    const players = new PlayerRegistry({
      store,
      clock,
      bus,
      transport: requestsInFlight.gate(
        faultingTransport(guardedTransport(playerHttp.transport, options.outbound), faults, clock),
      ),
      inFlight: requestsInFlight,
      onExchange: (exchange) => recorder.add(entryOfExchange(exchange)),
      warnings,
    });
    closers.push(() => players.close());
    const views = new HouseholdViews(store, players.statusOf);
    const household = new HouseholdEditor({ store, views, emit: (name, data) => bus.emit(name, data) });
    // The players follow the household: a new group gets a player, a dissolved one loses it.
    closers.push(bus.on('household.changed', () => players.sync()));
    let urls: ServiceUrls | null = null;
    const login = createLoginService({
      store,
      clock,
      bus,
      urls: () => urls!,
      injectedAuthorizeStatus: injectedStatusOf,
      secrets,
      ...(options.openOAuthWindow ? { openOAuthWindow: options.openOAuthWindow } : {}),
    });
    const queues = new QueueModel({
      store,
      clock,
      emit: (name, data) => bus.emit(name, data),
      cloudQueueUrl: () => urls!.cloudQueue,
    });
    closers.push(() => queues.close());
    const generations = new QueueGenerations({ queues, emit: (name, data) => bus.emit(name, data) });
    closers.push(() => generations.close());
    const queueActivity = new QueueActivity({
      emit: (name, data) => bus.emit(name, data),
      playerName: (playerId) => store.players.get(playerId)?.name ?? null,
      storedReports: (queueId, limit) => {
        const head = queues.head(queueId);
        return head ? (store.timePlayed.lastPerPlayer(head.key, limit) as TimePlayedRecordView[]) : [];
      },
    });
    // Events to integrations' callbacks, from the players' and the household's changes (docs/events.md).
    const eventDelivery = createEventDelivery({
      store,
      clock,
      bus,
      players,
      views,
      recorder,
      transport: faultingDeliveryTransport(guardedTransport(httpDeliveryTransport, options.outbound), faults, clock),
    });
    closers.push(() => eventDelivery.close());
    // The conformance suite and the fleet are built on their first command (api/lazy-part.ts).
    const conformance = lazyPart(
      [
        'conformance.cases',
        'conformance.runs.start',
        'conformance.runs.list',
        'conformance.runs.get',
        'conformance.runs.rerun',
        'conformance.runs.stop',
        'conformance.runs.delete',
        'conformance.runs.export',
      ],
      async () => {
        const [{ ConformanceRuns }, { conformanceCommandHandlers }] = await Promise.all([
          import('./conformance/runs.js'),
          import('./conformance/commands.js'),
        ]);
        const part = new ConformanceRuns({
          repo: store.conformanceRuns,
          faults,
          recorder,
          bus,
          engineClock: clock,
          wall,
        });
        return { part, handlers: conformanceCommandHandlers(part) };
      },
    );
    closers.push(() => conformance.close());
    // Fleets of simulated players (docs/fleet.md): their traffic is sampled into the log.
    const fleets = lazyPart(['fleets.start', 'fleets.list', 'fleets.get', 'fleets.stop', 'fleets.export'], async () => {
      const [{ FleetRuns }, { fleetCommandHandlers }] = await Promise.all([
        import('./fleet/runs.js'),
        import('./fleet/commands.js'),
      ]);
      const part = new FleetRuns({
        wall,
        now: () => clock.now(),
        faults,
        reference: {
          create: (input) => queues.create(input),
          delete: (id) => queues.writes.turn(id, () => queues.delete(id)),
        },
        log: (exchange) => recorder.add(entryOfExchange(exchange)),
        emit: (progress) => bus.emit('fleet.progress', progress),
      });
      return { part, handlers: fleetCommandHandlers(part) };
    });
    closers.push(() => fleets.close());
    const callControl = controlCaller({
      controlUrl: () => urls!.control,
      accessToken: (as) => login.controlToken(as),
      clock,
    });
    const examples = {
      groups: () => views.groups(),
      sessionOf: (groupId: string) => players.forGroup(groupId)?.currentSession?.id ?? null,
      queues: () => queues.list(),
      firstItemId: (queueId: string) => queues.itemsPage(queueId, 0, 1).items[0]?.id ?? null,
    };
    // Built on the first request, then kept: the table does not change while the engine runs, and
    // the ready line does not wait for it.
    let apiDescription: ReturnType<typeof describeAdminApi> | null = null;
    const handlers: CommandHandlers = {
      ...clockCommands(clock),
      ...preferenceCommands(store.settings),
      ...householdCommands(views, household),
      ...login.commands,
      ...queueCommands(queues, generations, queueActivity, store.timePlayed),
      ...playerCommandHandlers(players, views, callControl, {
        senders: () => login.controlSenders(),
        examples: (groupId) => controlExamples(examples, groupId),
      }),
      ...faultCommandHandlers(faults, { players, ownCloudQueue: () => urls!.cloudQueue }),
      ...trafficCommandHandlers(recorder, traffic, store),
      ...scenarioCommandHandlers(store.scenarios, clock, {
        faults,
        players,
        clock,
        bus,
        callControl,
        urls: () => urls!,
        exchanges: playerExchangeReader(traffic, recorder),
        commands: (name, input) => commands.run(name as CommandName, input),
        requests: requestsInFlight,
      }),
      ...eventDelivery.commands,
      ...bundleCommandHandlers({
        store,
        traffic,
        queues,
        faults,
        players,
        clock,
        recorder,
        journal,
        urls: () => urls!,
        wallNow: () => wall.now(),
      }),
      ...conformance.handlers,
      ...fleets.handlers,
      'state.get': () => stateView(startId, clock, urls!, store, views, warnings),
      'api.describe': () => (apiDescription ??= describeAdminApi(options.version ?? '0.0.0')),
    };
    const commands: CommandRunner = createCommandRunner(journaledHandlers(handlers, journal, { faults, queues }));

    const streams = new EventStreams(bus);
    const apps: ServiceApps = {
      console: await buildConsoleApp({
        commands,
        streams,
        adminToken,
        consolePort: () => boundPort(apps.console),
        assets: loadConsoleAssets(options.consoleAssetsDir, adminToken),
      }),
      login: await login.buildApp(),
      control: await buildControlApp({
        verifyAccessToken: login.verifyAccessToken,
        observeBearerCall: login.observeBearerCall,
        views,
        store,
        players,
        subscriptions: eventDelivery.subscriptions,
      }),
      cloudQueue: await buildCloudQueueApp({
        queues,
        items: store.queueItems,
        timePlayed: store.timePlayed,
        activity: queueActivity,
        clock,
      }),
    };
    const respondStatus = loginAuthorizeResponder(AUTHORIZE_PATH);
    for (const name of SERVICE_NAMES) instrumentService(apps[name], name, { recorder, faults, clock, respondStatus });
    journalControlCalls(apps.control, journal, {
      tokenOwner: (token) => queues.list().find((queue) => queue.accessToken === token)?.id,
    });
    closers.push(async () => {
      streams.closeAll();
      await Promise.all(Object.values(apps).map((app) => app.close()));
    });
    await login.registerConsoleRoutes(apps.console);
    urls = await listenAll(apps, options.host ?? DEFAULT_HOST, options.port ?? DEFAULT_PORT);
    login.onListening();
    players.resume(urls.cloudQueue);
    eventDelivery.start();
    log.info(
      `console ${urls.console} · login ${urls.login} · control ${urls.control} · cloud queue ${urls.cloudQueue}`,
    );
    log.info(options.dataDir === null ? 'data: in memory (--ephemeral)' : `data: ${options.dataDir}`);

    let closing: Promise<void> | null = null;
    return {
      urls,
      adminToken,
      commands,
      events: bus,
      clock,
      dataDir: options.dataDir,
      close: () => (closing ??= closeAll()),
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

function stateView(
  startId: string,
  clock: EngineClock,
  urls: ServiceUrls,
  store: Store,
  views: HouseholdViews,
  warnings: EngineWarnings,
): EngineStateView {
  return {
    startId,
    clock: clock.state(),
    urls,
    dataDir: store.dataDir,
    warnings: warnings.list(),
    households: views.households(),
    groups: views.groups(),
    players: views.players(),
  };
}
