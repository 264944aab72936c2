import type { Context, Message } from '@deepseek-ai/cordis'
import type { Loader } from '@deepseek-ai/cordis-plugin-loader'
import type { Scenario } from '../scenario/scenario.ts'
import type { Schedule } from '../space/space.ts'
import { ROOT_CHAIN } from '../space/space.ts'
import type { Mounted, Observation, Target } from '../targets/target.ts'
import { projectWithBytes, type Projection } from '../projection/projection.ts'
import type { Crash, StuckInfo } from '../verdict/outcome.ts'
import type { ScheduleDriver } from './drive.ts'
import { OperationPool, type Control, type HeldUse } from './operations.ts'
import { quiesce } from './quiescence.ts'
import { ioInFlight, resourceBaseline, type ResourceBaseline } from './resources.ts'
import { Sandbox } from './sandbox.ts'
import { waitAtMost, type WaitControl } from './settle.ts'
import { runInSut, type SutMonitor } from './sut-context.ts'
import { DroppedApplies } from './dropped-applies.ts'
import { CrashWatch } from './crashes.ts'
import { OutputCapture, type SystemOutput } from './output-capture.ts'
import { disposeAll } from './teardown.ts'
import { RealIo } from './real-io.ts'
import { unlockEveryPort } from './fixed-ports.ts'
import { wallNow } from './real-clock.ts'
import { entryLabel } from '../scenario/entry-labels.js'
import './system-clocks.ts'
import './worker-threads.ts'
import { inactiveEntries } from './inactive.ts'
import type { Contributions } from './contributions.ts'
import type { Apply, AppliesRecorder } from '../preload/applies.js'
import type { System } from '../system/system.ts'
import { scheduledClasses, type ScheduledClasses } from './scheduled-loader.ts'
import { isolate, type Isolation } from './workdir.ts'
import type { Outcome } from '../verdict/outcome.ts'

/** The parts of an interleaving, in order: fresh context, base composition and scheduled loader; the scheduled boot; the turns; the projection; the teardown. */
export type InterleavingPhase = 'setup' | 'boot' | 'turns' | 'projection' | 'teardown'

/**
 * How long teardown waits for the disposal of the interleaving's contexts
 * (their `dispose` listeners) before it ends the real I/O left open anyway.
 */
export const DISPOSE_WAIT_MS = 5_000

/**
 * The same wait after a stuck interleaving: an `apply` that never settles
 * keeps its fiber's disposal waiting for ever, so teardown gives the
 * disposers only a moment, then ends the real I/O left open anyway.
 */
export const STUCK_DISPOSE_WAIT_MS = 100

/** Default per-interleaving timeout. */
export const DEFAULT_TIMEOUT_MS = 5_000

/**
 * Default per-interleaving timeout of a whole application (`app: entries`):
 * dsh's ACP application boots some thirty plugins and drives a turn over ACP,
 * seconds of real work on a loaded two-core machine. A timeout only ends a
 * run whose work is still in flight; one that nothing can wake is stuck at once.
 */
export const APPLICATION_TIMEOUT_MS = 30_000

/** The timeout of one interleaving of `scenario` when neither the caller nor the file sets one. */
export function defaultTimeoutOf(scenario: Pick<Scenario, 'app'>): number {
  return scenario.app === 'entries' ? APPLICATION_TIMEOUT_MS : DEFAULT_TIMEOUT_MS
}

export interface InterleavingOptions {
  timeoutMs?: number
  /** Who chooses the release order; default `driveSchedule` (the given schedule). Benchmarks plug in a peer scheduler here. */
  drive?: ScheduleDriver
  /** Called as each phase ends (a run that stops early skips the phases it did not reach). Benchmarks time the phases with it. */
  onPhase?: (phase: InterleavingPhase) => void
  /** Keep the working folder of an interleaving whose outcome is not the one the scenario expects, and say where it is. */
  keepWorkdir?: boolean
  /** How much loadrace controls (see `Control`); default `full`. `order-only`: the import order is held, the timers and clocks are real. */
  control?: Control
}

/** What loadrace held for the system in one interleaving, and the real I/O the system opened (async-hook types, `WORKER`): what it may have failed to hold. */
export interface HeldResources extends HeldUse {
  io: string[]
}

export interface InterleavingResult {
  /** The order in which operations were actually released: the replayable schedule. */
  schedule: string[]
  /** For each operation of `schedule`, how many of the operations before it had been released when it was requested. */
  enabledAt: number[]
  projection: Projection
  /** The projection's bytes. */
  json: string
  hash: string
  /** Who contributed each tool and prompt section of the last assembly (not part of the compared bytes). */
  contributions: Contributions
  /** Every plugin applied under the loader's entries, in the order they began, with what each waited for (`preload/applies.js`; not part of the compared bytes). */
  applies?: readonly Apply[]
  /** What the system printed (not part of the compared bytes); absent when it printed nothing. */
  output?: SystemOutput
  /** Set when a wait for quiescence ran into the per-interleaving timeout: something kept the system busy that long. */
  waitedOut?: true
  /** The timers and clocks loadrace held for the system, and the real I/O it opened (not part of the compared bytes). */
  held: HeldResources
}

/**
 * One interleaving under way: the fresh root context it runs in, the pool of
 * operations the scheduler holds and releases, the sandbox that holds the
 * system's timers, and what it has observed so far. The phases
 * (`phases.ts`) are functions over it.
 */
export interface Interleaving {
  readonly scenario: Scenario
  readonly target: Target
  /** The cordis, loader and include the system runs on, and their scheduled classes. */
  readonly system: System
  readonly classes: ScheduledClasses
  readonly schedule: Schedule
  readonly options: InterleavingOptions
  /** Wall-clock time (ms) after which a wait is declared stuck on the timeout. */
  readonly deadline: number
  readonly root: Context
  readonly pool: OperationPool
  /** What the system's code, in the interleaving's scope, reports to: the pool (timers, immediates) and the dropped `apply` promises. */
  readonly monitor: SutMonitor
  /** Promises returned by plain-function `apply`s, which cordis does not await but the boot does. */
  readonly dropped: DroppedApplies
  readonly sandbox: Sandbox
  /** Errors the system logged, in logging order. */
  readonly loadErrors: string[]
  /** The process's handles and requests before the system ran: what quiescence does not wait for. */
  readonly baseline: ResourceBaseline
  /** The child processes, pipes, sockets, servers, watchers and threads the system opened (see `real-io.ts`). */
  readonly realIo: RealIo
  /** Cordis status events seen: progress that quiescence counts. */
  statusChanges: number
  /** The base composition, once mounted. */
  mounted?: Mounted
  /** Reads who contributed each tool and prompt section, once watching. */
  contributions?: { read(): Contributions }
  /** Records the applies of the interleaving's plugins (set at setup). */
  applies?: AppliesRecorder
  /** The scheduled loader, once started. */
  loader?: Loader
  /** The interleaving's own working directory, home and environment, in force until it closes. */
  readonly isolation: Isolation
  /** How the interleaving ended, once projected: whether its folder is kept on request. */
  outcome?: Outcome
  /** Takes over the thread's crash channels while the interleaving runs (see `crashes.ts`). */
  readonly crashWatch: CrashWatch
  /** Keeps what the system prints, instead of printing it (see `output-capture.ts`). */
  readonly output: OutputCapture
  /** The system's crash, once it crashed, with the errors it had logged by then. */
  crash?: { crash: Crash, loadErrors: string[] }
  /** Set once a wait for quiescence ran into the deadline. */
  waitedOut: boolean
  /** Set once the interleaving ended before its phases did (a crash, or loadrace's own uncaught error): the phases wait forever. */
  stopped: boolean
  /**
   * Settles when the interleaving ends before its phases do: fulfilled when
   * the system crashed, rejected with loadrace's own uncaught error.
   */
  readonly endedEarly: Promise<void>
}

const plainExporter = { colors: false as const, export() {} }

/** The text of one logged error: the error's message (an Error of any realm), or the line the system's logger formats. */
function logText(message: Message, system: System): string {
  const [first] = message.args
  if (first instanceof Error || (typeof first === 'object' && first !== null && typeof (first as Error).message === 'string' && typeof (first as Error).stack === 'string')) return (first as Error).message
  return system.cordis.Logger.format(plainExporter, message)
}

/** Starts an interleaving on `system`: a fresh root context whose logged errors are recorded, and the sandbox that holds its timers. */
export function openInterleaving(scenario: Scenario, target: Target, system: System, schedule: Schedule, options: InterleavingOptions): Interleaving {
  const deadline = wallNow() + (options.timeoutMs ?? scenario.timeout ?? defaultTimeoutOf(scenario))
  const classes = scheduledClasses(system)
  const sandbox = new Sandbox()
  const root = new system.cordis.Context()
  const realIo = new RealIo()
  const control = options.control ?? 'full'
  const pool = new OperationPool(() => realIo.isOpen(), control)
  const loadErrors: string[] = []
  root.logger.exporter({
    export: (message) => {
      if (message.type === 'error') loadErrors.push(logText(message, system))
    },
  })
  const dropped = new DroppedApplies()
  const monitor: SutMonitor = {
    timerCreated: (timer, chain) => pool.timerCreated(timer, chain),
    immediateQueued: () => pool.immediateQueued(),
    applyReturned: (promise, chain) => dropped.add(promise, chain),
    realIoOpened: opened => realIo.add(opened),
    ...control === 'full' ? { clockReading: (chain: string, api?: string) => pool.clockReading(chain, api) } : {},
  }
  let endEarly!: { crashed(): void, failed(error: unknown): void }
  const endedEarly = new Promise<void>((resolve, reject) => { endEarly = { crashed: resolve, failed: reject } })
  // Nothing waits for it until the phases are raced against it.
  endedEarly.catch(() => {})
  const crashWatch = new CrashWatch(monitor, {
    crashed: (crash) => {
      run.crash = { crash, loadErrors: [...loadErrors] }
      run.stopped = true
      endEarly.crashed()
    },
    failed: (error) => {
      run.stopped = true
      endEarly.failed(error)
    },
  })
  const baseline = resourceBaseline()
  const isolation = isolate(scenario.env, workdir => target.isolation?.(scenario, workdir) ?? {})
  const run: Interleaving = {
    scenario, target, system, classes, schedule, options, deadline, root, pool, monitor, dropped, sandbox, loadErrors,
    baseline, realIo, statusChanges: 0, isolation, crashWatch, output: new OutputCapture(monitor), stopped: false, waitedOut: false, endedEarly,
  }
  // Through the events service itself: `root.on` is a mixin accessor, and cordis builds an Error for every such read.
  root.events.on('internal/status', () => { run.statusChanges++ })
  // Before the sandbox: its snapshot of process listeners then holds the watch's own.
  crashWatch.install()
  run.output.install()
  sandbox.install()
  return run
}

/** Calls into the system under test, in its scope: what it sets up is held and attributed to the base composition. */
export function inSystem<T>(run: Interleaving, fn: () => T): T {
  return runInSut(run.monitor, ROOT_CHAIN, fn)
}

/** What the phases of an interleaving that stopped early wait on: nothing settles it, so they never go on. */
function never<T>(): Promise<T> {
  return new Promise<T>(() => {})
}

/** Settles the system to quiescence; false when the deadline passed first. Once the interleaving stopped early, never settles. */
export function settle(run: Interleaving): Promise<boolean> {
  if (run.stopped) return never()
  return quiesce({
    progress: () => run.pool.version + run.statusChanges,
    immediates: () => run.pool.immediates,
    busy: () => run.pool.isFiring() || ioInFlight(run.baseline) || childAwaited(run),
  }, run.deadline).then((quiet) => {
    if (!quiet) run.waitedOut = true
    return run.stopped ? never() : quiet
  })
}

/**
 * Whether the system awaits a child process: one an entry whose work has not
 * settled started, still running — unless a held timer may fire now, which
 * the entry may be waiting for instead (the real-time floor of
 * `operations.ts` keeps it from firing before the child could answer).
 */
function childAwaited(run: Interleaving): boolean {
  if (!run.realIo.isOpen() || run.pool.timerMayFire()) return false
  const unsettled = new Set([...unsettledEntries(run.loader).map(entryLabel), ...run.dropped.unsettled()])
  return run.realIo.childAwaited(chain => unsettled.has(chain))
}

/** What `settleOrStuck` needs to wait on this interleaving. */
export function waitControl(run: Interleaving): WaitControl {
  return { pool: run.pool, baseline: run.baseline, deadline: run.deadline, quiesce: () => settle(run), realIoOpen: () => run.realIo.isOpen() }
}

/** Loader entries whose import or plugin fiber has not settled (what a stuck boot waits for). */
function unsettledEntries(loader: Loader | undefined): string[] {
  if (!loader) return []
  return [...loader.entries()].filter(entry => entry._initTask !== undefined || entry.fiber?.inertia !== undefined).map(entry => entry.options.id)
}

/** Why the interleaving is stuck, and what it was waiting for: pending or unreached operations and unsettled loader entries. */
export function stuckInfo(run: Interleaving, reason: StuckInfo['reason'], phase: StuckInfo['phase']): StuckInfo {
  const { pool, schedule } = run
  return {
    reason,
    phase,
    waiting: [...new Set([
      ...pool.pending(),
      ...schedule.filter(op => !pool.released().includes(op) && !pool.isPending(op)),
      ...unsettledEntries(run.loader),
      ...run.dropped.unsettled(),
    ])],
  }
}

/** The interleaving's result: what it released, its projection and bytes, and who contributed what. A crashed interleaving's projection is its crash and the errors logged before it. */
export function finish(run: Interleaving, observation: Observation | undefined, stuck: StuckInfo | null): InterleavingResult {
  const crashed = run.crash
  const { projection, json, hash } = crashed
    ? projectWithBytes({ observation: undefined, loadErrors: crashed.loadErrors, stuck: null, inactive: [], crash: crashed.crash })
    : projectWithBytes({ observation, loadErrors: run.loadErrors, stuck, inactive: stuck ? [] : inactiveEntries(run.root) })
  run.outcome = projection.outcome
  const output = run.output.read()
  const result: InterleavingResult = {
    schedule: [...run.pool.released()],
    enabledAt: [...run.pool.enabledAt()],
    projection,
    json,
    hash,
    contributions: run.contributions?.read() ?? { tools: [], sections: [] },
    ...run.applies === undefined ? {} : { applies: [...run.applies.applies] },
    ...output === undefined ? {} : { output },
    ...run.waitedOut ? { waitedOut: true as const } : {},
    held: { ...run.pool.heldUse(), io: run.realIo.openedKinds() },
  }
  run.options.onPhase?.('projection')
  return result
}

/**
 * Ends the interleaving: held timers dropped first, then every context
 * disposed and its `dispose` listeners awaited, then every child process the
 * system left running killed and reaped and every handle it left open
 * closed — all before the next interleaving starts.
 */
export async function closeInterleaving(run: Interleaving): Promise<void> {
  run.pool.close()
  // Timers first: a leaked timer must not fire between the disposal of its plugin and the next interleaving.
  // (A timer a disposer starts runs as the system set it: the pool no longer holds it.)
  run.sandbox.dispose()
  // In the system's scope: what its disposers print after the capture ends is dropped, never printed.
  await waitAtMost(inSystem(run, () => disposeAll(run.root)), run.outcome === 'stuck' ? STUCK_DISPOSE_WAIT_MS : DISPOSE_WAIT_MS)
  const left = await run.realIo.end()
  unlockEveryPort()
  if (left.length > 0) process.stderr.write(`loadrace: an interleaving of ${run.scenario.name} left ${left.join(', ')} open after teardown\n`)
  run.output.dispose()
  run.crashWatch.dispose()
  const kept = run.isolation.end(run.options.keepWorkdir === true && run.outcome !== run.scenario.expect.outcome)
  if (kept !== undefined) process.stderr.write(`loadrace: kept the working folder of an interleaving of ${run.scenario.name} (outcome ${run.outcome ?? 'none'}, released ${run.pool.released().join(',') || 'nothing'}): ${kept}\n`)
  run.options.onPhase?.('teardown')
}
