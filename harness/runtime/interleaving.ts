import { Context, Logger, type Message } from '@deepseek-ai/cordis'
import type { Loader } from '@deepseek-ai/cordis-plugin-loader'
import type { Scenario } from '../scenario/types.ts'
import type { Schedule } from '../space/space.ts'
import type { Mounted, Observation, Target } from '../targets/types.ts'
import { mountOptionsOf } from './mount-options.ts'
import { OperationPool } from './operations.ts'
import { ScheduledLoader, scheduleImports } from './scheduled-loader.ts'
import { driveSchedule, type ScheduleDriver } from './drive.ts'
import { quiesce } from './quiescence.ts'
import { runInSut } from './sut-context.ts'
import { ROOT_CHAIN } from '../space/space.ts'
import { projectWithBytes, type Projection } from '../projection/projection.ts'
import { type StuckInfo } from '../verdict/outcome.ts'
import type { PluginHost } from '../plugins/tool-plugin.ts'
import { rootMount, settlementOf } from './entries.ts'
import { inactiveEntries } from './inactive.ts'
import { watchContributions, type Contributions } from './contributions.ts'
import { entryLabel } from '../scenario/entry-labels.ts'
import { ioInFlight, resourceBaseline } from './resources.ts'
import { Sandbox } from './sandbox.ts'
import { settleOrStuck } from './settle.ts'
import { disposeAll } from './teardown.ts'

/** The parts of an interleaving, in order: fresh context, base composition and scheduled loader; the scheduled boot; the turns; the projection; the teardown. */
export type InterleavingPhase = 'setup' | 'boot' | 'turns' | 'projection' | 'teardown'

/** Default per-interleaving timeout. */
export const DEFAULT_TIMEOUT_MS = 5_000

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
}

const plainExporter = { colors: false as const, export() {} }

/** The text of one logged error: the error's message, or the formatted log line. */
function logText(message: Message): string {
  const [first] = message.args
  if (first instanceof Error) return first.message
  return Logger.format(plainExporter, message)
}

/** Loader entries whose import or plugin fiber has not settled (what a stuck boot waits for). */
function unsettledEntries(loader: Loader | undefined): string[] {
  if (!loader) return []
  return [...loader.entries()].filter(entry => entry._initTask !== undefined || entry.fiber?.inertia !== undefined).map(entry => entry.options.id)
}

/**
 * Runs one interleaving of `scenario` against `target`: a fresh root context,
 * the base composition, a scheduled loader whose every import, batch gap and
 * timer waits for the scheduler, the operations released in `schedule` order
 * (each followed by quiescence), boot, the scenario's turns, and the
 * projection. Never hangs: unsettleable work is reported as stuck.
 */
export async function runInterleaving(
  scenario: Scenario,
  target: Target,
  schedule: Schedule,
  options: {
    timeoutMs?: number
    /** Who chooses the release order; default `driveSchedule` (the given schedule). Benchmarks plug in a peer scheduler here. */
    drive?: ScheduleDriver
    /** Called as each phase ends (a run that stops early skips the phases it did not reach). Benchmarks time the phases with it. */
    onPhase?: (phase: InterleavingPhase) => void
  } = {},
): Promise<InterleavingResult> {
  const deadline = Date.now() + (options.timeoutMs ?? scenario.timeout ?? DEFAULT_TIMEOUT_MS)
  const stackTraceLimit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  const sandbox = new Sandbox()
  const root = new Context()
  const pool = new OperationPool()
  try {
    const loadErrors: string[] = []
    root.logger.exporter({
      export: (message) => {
        if (message.type === 'error') loadErrors.push(logText(message))
      },
    })
    let statusChanges = 0
    root.on('internal/status', () => { statusChanges++ })
    const baseline = resourceBaseline()
    sandbox.install()
    /** Calls into the system under test, in its scope: what it sets up is held and attributed. */
    const sut = <T>(fn: () => T): T => runInSut(pool, ROOT_CHAIN, fn)

    const mounted: Mounted = sut(() => target.mount(root, mountOptionsOf(scenario)))
    const contributions = watchContributions(root)
    const host: PluginHost = {
      mounted,
      gate: label => pool.hold(label, { kind: 'value', produce: () => undefined }),
      hasRegistered: (ctx, id) => {
        const spec = scenario.plugins.find(plugin => plugin.id === id)
        if (spec?.kind === 'tools') return spec.batches[0]!.every(tool => mounted.hasTool(ctx, tool.name))
        return pool.released().includes(id)
      },
    }
    const specs = new Map(scenario.plugins.map(spec => [spec.id, spec]))
    const services = new Map(mounted.entries.map(entry => [entry.id, entry]))
    scheduleImports(root, (entryId) => {
      const label = entryLabel(entryId)
      const service = services.get(label)
      if (service) return pool.hold(label, { kind: 'value', produce: () => ({ default: service.plugin }) })
      const spec = specs.get(label)
      if (!spec) return Promise.reject(new Error(`no plugin "${label}" in scenario ${scenario.name}`))
      return pool.hold(label, settlementOf(spec, host))
    })

    const settle = () => quiesce({
      progress: () => pool.version + statusChanges,
      immediates: () => pool.immediates,
      busy: () => pool.isFiring() || ioInFlight(baseline),
    }, deadline)
    const wait = { pool, baseline, deadline, quiesce: settle }
    const stuck = (reason: StuckInfo['reason'], phase: StuckInfo['phase']): StuckInfo => ({
      reason,
      phase,
      waiting: [...new Set([
        ...pool.pending(),
        ...schedule.filter(op => !pool.released().includes(op) && !pool.isPending(op)),
        ...unsettledEntries(root.get('loader') as Loader | undefined),
      ])],
    })
    const finish = (observation: Observation | undefined, stuckInfo: StuckInfo | null) => {
      const { projection, json, hash } = projectWithBytes({ observation, loadErrors, stuck: stuckInfo, inactive: stuckInfo ? [] : inactiveEntries(root) })
      const result = { schedule: [...pool.released()], enabledAt: [...pool.enabledAt()], projection, json, hash, contributions: contributions.read() }
      options.onPhase?.('projection')
      return result
    }

    sut(() => root.plugin(ScheduledLoader))
    await settle()
    const loader = root.get('loader') as Loader | undefined
    if (!loader) throw new Error('scheduled loader did not start')
    options.onPhase?.('setup')
    const mount = await rootMount(scenario, mounted.entries)
    void sut(() => loader.root.update(mount.entries))

    const imports = await settleOrStuck(pool.whenRequested(mount.initial), wait)
    if (imports.kind === 'stuck') return finish(undefined, stuck(imports.reason, 'boot'))
    const booted = sut(() => loader.await())
    let booting = true
    booted.then(() => { booting = false }, () => { booting = false })
    await (options.drive ?? driveSchedule)(pool, schedule, settle, () => booting)
    const boot = await settleOrStuck(booted, wait)
    if (boot.kind === 'stuck') return finish(undefined, stuck(boot.reason, 'boot'))
    if (boot.kind === 'rejected') loadErrors.push(boot.error instanceof Error ? boot.error.message : String(boot.error))

    const problem = mounted.bootProblem()
    if (problem !== undefined) {
      loadErrors.push(problem)
      return finish(undefined, null)
    }
    options.onPhase?.('boot')
    pool.phase = 'turns'
    const turns = await settleOrStuck(sut(() => mounted.runTurns(scenario.turns)), wait)
    options.onPhase?.('turns')
    if (turns.kind === 'stuck') return finish(undefined, stuck(turns.reason, 'turns'))
    if (turns.kind === 'rejected') throw turns.error
    return finish(turns.value, null)
  } finally {
    pool.close()
    // Timers first: a leaked timer must not fire between the disposal of its plugin and the next interleaving.
    // (A timer a disposer starts is not caught; disposers that schedule work are the plugin's own contract.)
    sandbox.dispose()
    disposeAll(root)
    Error.stackTraceLimit = stackTraceLimit
    options.onPhase?.('teardown')
  }
}
