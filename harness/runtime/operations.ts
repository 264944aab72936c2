/**
 * The pending operations of one interleaving: every plugin import completion,
 * every gap between registration batches, and every timer the system under
 * test sets up is held here until the scheduler releases it. Nothing settles
 * on its own.
 *
 * Imports and batch gaps are held as promises the scheduler settles. Timers
 * are held where Node created them (`held-timers.ts`) and named after the
 * chain whose code created them: `<chain>#timer<k>`, the k-th timer of that
 * chain. The virtual clock (`virtual-clock.ts`) says which of them may fire
 * next without contradicting their deadlines.
 */
import { fireSoon, holdTimer, timerPending, type HeldTimer } from './held-timers.ts'
import { timerLabel } from '../space/space.ts'
import type { SutMonitor } from './sut-context.ts'
import { VirtualClock, type VirtualTime } from './virtual-clock.ts'
import { realNow } from './real-clock.ts'

/** How far held time moves on each read of a clock: a loop waiting for time to pass still ends. */
export const CLOCK_READ_STEP_MS = 0.001

/**
 * How much of an interleaving loadrace controls. `full`: the schedule's
 * imports, batch gaps and timers are held, and the system's clocks read held
 * time. `order-only`: imports and batch gaps are still held and released in
 * the schedule's order, but timers run as Node runs them and the clocks are
 * the real ones — the run that tells loadrace's own doing apart from the
 * system's (see `judge/analyse.ts`).
 */
export type Control = 'full' | 'order-only'

/**
 * A fault injected into loadrace's own control, for its tests only (variable
 * `LOADRACE_INJECT_FAULT`). `clock-drift`: each clock read moves held time on
 * by as many seconds as this process has opened interleavings, instead of a
 * microsecond — state leaking from one interleaving into the next, the kind
 * of bug in loadrace that would make reruns of one schedule differ.
 */
export type InjectedFault = 'clock-drift'

/** The fault `LOADRACE_INJECT_FAULT` asks for, if any. */
export function injectedFault(env: NodeJS.ProcessEnv = process.env): InjectedFault | undefined {
  return env.LOADRACE_INJECT_FAULT === 'clock-drift' ? 'clock-drift' : undefined
}

/** Interleavings this process opened (what the `clock-drift` fault leaks). */
let pools = 0

/** What loadrace held for the system in one interleaving: the evidence for naming what it may have failed to hold. */
export interface HeldUse {
  /** Every timer the pool held, in creation order: its label, the delay asked for, whether it repeats. */
  timers: { label: string, delay: number, repeats: boolean }[]
  /** Every clock the system read held time from (`Date.now`, `performance.now`, …), with how many times. */
  clocks: { api: string, reads: number }[]
}

/** What a held operation settles with once released. */
export type Settlement<T> =
  | { kind: 'value', produce: () => T }
  /** The operation never settles (a faulty import that hangs). */
  | { kind: 'never' }

/** Whether the scheduler's choices are recorded in the effective schedule (boot) or not (turns). */
export type Phase = 'boot' | 'turns'

interface HeldPromise {
  kind: 'promise'
  release: () => void
  /** How many recorded releases had happened when the operation could first go: when it was requested. */
  enabledAt: number
}

interface HeldTimerOp {
  kind: 'timer'
  timer: HeldTimer
  resource: object
  due: VirtualTime
  /** A later firing of an interval (the scheduler's fallback leaves these held). */
  repeat: boolean
  /** Creation order, to break ties between equal due times. */
  seq: number
  /** How many recorded releases had happened when the timer could first fire without contradicting a deadline. */
  enabledAt: number | undefined
  /** When the system set it up, in real ms (`realNow`). */
  setAt: number
}

type Held = HeldPromise | HeldTimerOp

export class OperationPool implements SutMonitor {
  private readonly held = new Map<string, Held>()
  private readonly releasedOps: string[] = []
  private readonly releasedEnabledAt: number[] = []
  private readonly everReleased = new Set<string>()
  private readonly waiters: { labels: readonly string[], resolve: () => void }[] = []
  private readonly timerCounts = new Map<string, number>()
  private readonly clock = new VirtualClock()
  private timerSeq = 0
  /** Released timers whose callback has not run yet: work about to happen. */
  private readonly firing = new Set<HeldTimer>()
  private heldTimers = 0
  private closed = false
  /** Held time at the latest release (ms): the earliest time consistent with every release so far. */
  private heldTime = 0
  /** Clock reads per chain: a chain's reads are its own code's, in the same number whatever ran before it. */
  private readonly reads = new Map<string, number>()
  /** Clock reads per API, and the timers held (see {@link HeldUse}). */
  private readonly clockReads = new Map<string, number>()
  private readonly timersHeld: HeldUse['timers'] = []
  private readonly fault: InjectedFault | undefined
  private readonly opened = ++pools
  /** Under `order-only`: the system's timers, which run as Node runs them. */
  private readonly unheld = new Set<object>()
  /** Bumped on every request, release and timer callback; quiescence watches it for progress. */
  version = 0
  /** Immediates the system queued. */
  immediates = 0
  phase: Phase = 'boot'

  /**
   * `realIoOpen`: whether a child process, pipe, socket, server, watcher or
   * thread the system started is open (see `real-io.ts`). While one is, a
   * held timer is released no sooner than its delay of real time after the
   * system set it up: a timeout never fires earlier, relative to the real
   * I/O it guards, than it could without loadrace.
   *
   * `control`: with `order-only`, the timers the system sets up are not held
   * (they run as Node runs them, in real time); imports and batch gaps still are.
   */
  constructor(private readonly realIoOpen: () => boolean = () => false, readonly control: Control = 'full', fault: InjectedFault | undefined = injectedFault()) {
    this.fault = fault
  }

  /**
   * Registers `label` as pending and returns a promise that settles only after
   * `release(label)`. `produce` runs at release time; a throw rejects the promise.
   */
  hold<T>(label: string, settlement: Settlement<T>): Promise<T> {
    if (this.held.has(label) || this.everReleased.has(label)) {
      throw new Error(`operation "${label}" was requested twice in one interleaving`)
    }
    this.version++
    const promise = new Promise<T>((resolve, reject) => {
      this.held.set(label, {
        kind: 'promise',
        enabledAt: this.releasedOps.length,
        release: () => {
          if (settlement.kind === 'never') return
          try {
            resolve(settlement.produce())
          } catch (error) {
            reject(error)
          }
        },
      })
    })
    this.wake()
    return promise
  }

  /** Holds a timer the system just created in `chain` (see `held-timers.ts`). */
  timerCreated(resource: object, chain: string): void {
    if (this.closed) return
    if (this.control === 'order-only') {
      // Not held: it runs in real time, as Node runs it; its setting up is still progress.
      this.unheld.add(resource)
      this.version++
      return
    }
    const timer: HeldTimer = holdTimer(resource, () => this.timerFired(resource, timer, chain))
    this.holdTimerOp(resource, timer, chain, this.clock.dueIn(timer.delay), false)
  }

  immediateQueued(): void {
    if (!this.closed) this.immediates++
  }

  private holdTimerOp(resource: object, timer: HeldTimer, chain: string, due: VirtualTime, repeat: boolean): void {
    const k = (this.timerCounts.get(chain) ?? 0) + 1
    this.timerCounts.set(chain, k)
    if (!repeat) this.timersHeld.push({ label: timerLabel(chain, k), delay: timer.delay, repeats: timer.repeats })
    this.held.set(timerLabel(chain, k), { kind: 'timer', timer, resource, due, repeat, seq: this.timerSeq++, enabledAt: undefined, setAt: realNow() })
    this.heldTimers++
    this.version++
  }

  private timerFired(resource: object, timer: HeldTimer, chain: string): void {
    if (this.closed) return
    this.firing.delete(timer)
    this.version++
    // An interval is held again after each run: its next firing is a new operation.
    if (timer.repeats && !timer.cancelled()) this.holdTimerOp(resource, timer, chain, this.clock.dueIn(timer.delay), true)
  }

  /** Resolves once every label in `labels` has been requested (pending or already released). */
  whenRequested(labels: readonly string[]): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push({ labels, resolve })
      this.wake()
    })
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) {
      if (!waiter.labels.every(label => this.held.has(label) || this.everReleased.has(label))) continue
      this.waiters.splice(this.waiters.indexOf(waiter), 1)
      waiter.resolve()
    }
  }

  /** Drops timers the system cancelled; they can no longer be released. */
  private prune(): void {
    if (this.heldTimers === 0) return
    for (const [label, op] of this.held) {
      if (op.kind === 'timer' && op.timer.cancelled()) this.drop(label)
    }
  }

  private drop(label: string): void {
    if (this.held.get(label)?.kind === 'timer') this.heldTimers--
    this.held.delete(label)
  }

  isPending(label: string): boolean {
    this.prune()
    return this.held.has(label)
  }

  /** Labels currently waiting for the scheduler, in request order. */
  pending(): string[] {
    this.prune()
    return [...this.held.keys()]
  }

  /** Labels the scheduler released during boot, in release order: the effective schedule. */
  released(): readonly string[] {
    return this.releasedOps
  }

  /**
   * For each operation of {@link released}, how many operations of the
   * effective schedule had been released when it could first go (requested,
   * and for a timer no earlier deadline still held): it could not have gone
   * before the first that many, so it may depend on them.
   */
  enabledAt(): readonly number[] {
    return this.releasedEnabledAt
  }

  /** Notes which held timers may fire now, for {@link enabledAt}; call it at rest, before each choice. */
  observe(): void {
    if (this.heldTimers === 0) return
    for (const [label, op] of this.held) {
      if (op.kind === 'timer' && op.enabledAt === undefined && this.canRelease(label)) op.enabledAt = this.releasedOps.length
    }
  }

  /** Whether `label` is pending and may be released now (a timer: without contradicting any deadline). */
  canRelease(label: string): boolean {
    if (!this.isPending(label)) return false
    const op = this.held.get(label)!
    return op.kind === 'promise' || (this.realTimeAllows(op) && this.clock.canFire(op.due, this.otherDues(label)))
  }

  /** With real I/O open, whether the timer's delay has passed in real time since it was set up. */
  private realTimeAllows(op: HeldTimerOp): boolean {
    return realNow() - op.setAt >= op.timer.delay || !this.realIoOpen()
  }

  /** Whether some held timer may be released now. */
  timerMayFire(): boolean {
    if (!this.hasHeldTimers()) return false
    for (const [label, op] of this.held) if (op.kind === 'timer' && this.canRelease(label)) return true
    return false
  }

  /**
   * The held time `chain`'s code reads now (ms): the earliest time of the
   * latest release consistent with every release so far, which a replay of
   * the same schedule reaches again, plus {@link CLOCK_READ_STEP_MS} per read
   * the chain has made.
   */
  clockReading(chain: string, api = 'a clock'): number {
    const reads = (this.reads.get(chain) ?? 0) + 1
    this.reads.set(chain, reads)
    this.clockReads.set(api, (this.clockReads.get(api) ?? 0) + 1)
    const step = this.fault === 'clock-drift' ? this.opened * 1000 : CLOCK_READ_STEP_MS
    return this.heldTime + reads * step
  }

  /** What the pool held for the system so far: its timers and the clocks it read (see {@link HeldUse}). */
  heldUse(): HeldUse {
    return { timers: [...this.timersHeld], clocks: [...this.clockReads].map(([api, reads]) => ({ api, reads })) }
  }

  /** Moves held time to the latest release. */
  private advanceHeldTime(): void {
    const [time] = this.clock.earliest([this.clock.now()])
    if (time !== undefined && time > this.heldTime) this.heldTime = time
  }

  /** Whether `label` is a later firing of an interval (left held by the scheduler's fallback). */
  isRepeat(label: string): boolean {
    const op = this.held.get(label)
    return op?.kind === 'timer' && op.repeat
  }

  /**
   * The pending operation the system would run first if nothing else were
   * chosen: a held import or batch gap in request order, else the timer due
   * earliest (creation order on ties) that may fire. `accept` filters the candidates.
   */
  next(accept: (label: string) => boolean = () => true): string | undefined {
    const timers: { label: string, op: HeldTimerOp }[] = []
    for (const label of this.pending()) {
      if (!accept(label)) continue
      const op = this.held.get(label)!
      if (op.kind === 'promise') return label
      timers.push({ label, op })
    }
    const times = this.clock.earliest(timers.map(({ op }) => op.due))
    const order = timers.map((timer, i) => ({ ...timer, at: times[i] as number }))
      .sort((a, b) => a.at - b.at || a.op.seq - b.op.seq)
    return order.find(({ label }) => this.canRelease(label))?.label
  }

  /**
   * Under `order-only`: whether a timer of the system, not held, has yet to
   * run (or be cleared): it may wake the system, so a wait is not stuck.
   */
  unheldTimerPending(): boolean {
    for (const timer of this.unheld) if (!timerPending(timer)) this.unheld.delete(timer)
    return this.unheld.size > 0
  }

  /** Whether any timer is held (pending release). */
  hasHeldTimers(): boolean {
    this.prune()
    return this.heldTimers > 0
  }

  /** Held timers that keep the process alive in Node's view, though they can never fire on their own. */
  heldLiveTimers(): number {
    let count = 0
    for (const op of this.held.values()) if (op.kind === 'timer' && !op.timer.cancelled() && op.timer.refed()) count++
    return count
  }

  /** Whether a released timer has yet to run its callback. */
  isFiring(): boolean {
    for (const timer of this.firing) if (timer.cancelled()) this.firing.delete(timer)
    return this.firing.size > 0
  }

  private otherDues(label: string): VirtualTime[] {
    const dues: VirtualTime[] = []
    for (const [other, op] of this.held) if (other !== label && op.kind === 'timer' && !op.timer.cancelled()) dues.push(op.due)
    return dues
  }

  /**
   * Releases a pending operation. During boot the release joins the effective
   * schedule unless `record` is false (time advancing for a system that waits
   * on nothing else: a replay reaches the same point by itself).
   */
  release(label: string, record = true): void {
    const op = this.held.get(label)
    if (!op) throw new Error(`operation "${label}" is not pending`)
    this.drop(label)
    this.everReleased.add(label)
    if (this.phase === 'boot' && record) {
      this.releasedOps.push(label)
      this.releasedEnabledAt.push(op.enabledAt ?? this.releasedOps.length - 1)
    }
    this.version++
    if (op.kind === 'promise') {
      this.clock.releaseFree()
      op.release()
      return
    }
    this.clock.fire(op.due, this.otherDues(label))
    this.advanceHeldTime()
    this.firing.add(op.timer)
    fireSoon(op.resource)
  }

  /** Stops holding: timers created from now on (by disposers, say) run as the system set them. */
  close(): void {
    this.closed = true
  }
}
