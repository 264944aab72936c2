/**
 * Which interleaving, and which loader entry, a piece of running code belongs
 * to. The scheduler must hold the timers the system under test creates and
 * name each after the plugin whose code created it, whatever released that
 * code: an `apply` that waits for a service runs when its provider appears,
 * but its timers are still its own.
 *
 * An `AsyncLocalStorage` scope follows the system's work through promises,
 * timers and I/O callbacks. The interleaving enters it around every call into
 * the system (mount, boot, turns); cordis' `Fiber#_execute` — the one place
 * where a plugin's `apply`, constructor or effect body runs — re-enters it
 * with the chain of the loader entry that owns the fiber. Nothing else about
 * cordis changes: the wrapped method is called with the same receiver and
 * arguments and its result is returned as is.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Fiber } from '@deepseek-ai/cordis'
import { ROOT_CHAIN } from '../space/space.ts'

/** A child process, pipe, socket, server, watcher or thread the system opened (recorded by `real-io.ts`). */
export interface OpenedIo {
  /** Its async-hook type (`PROCESSWRAP`, `TCPSERVERWRAP`, …), or `WORKER`. */
  readonly type: string
  /** The chain whose code opened it. */
  readonly chain: string
  /** Set once it is closed (a process: exited and reaped). */
  closed: boolean
}

/** What the system under test reports to, and asks of, the interleaving it runs in. */
export interface SutMonitor {
  /** A timer (Node `Timeout`) was created by the chain's code. */
  timerCreated(timer: object, chain: string): void
  /** An immediate was queued by the system's code. */
  immediateQueued(): void
  /** A plugin cordis constructs with `new` returned a promise cordis will not await (see `dropped-applies.ts`). */
  applyReturned?(promise: PromiseLike<unknown>, chain: string): void
  /** The chain's code opened a child process, pipe, socket, server, watcher or thread (see `real-io.ts`). */
  realIoOpened?(opened: OpenedIo): void
  /** The held time the chain's code reads now through clock `api` (`Date.now`, …), in ms (see `held-clocks.js`); each call is one read. Absent: the system reads the real clocks. */
  clockReading?(chain: string, api?: string): number
}

/** The scope of one piece of the system's work. */
export interface SutScope {
  readonly monitor: SutMonitor
  readonly chain: string
}

const storage = new AsyncLocalStorage<SutScope>()

/** The scope of the code running now, or undefined outside the system under test. */
export function currentScope(): SutScope | undefined {
  return storage.getStore()
}

/** Runs `fn` as the system's work of `chain`, watched by the interleaving's `monitor`. */
export function runInSut<T>(monitor: SutMonitor, chain: string, fn: () => T): T {
  return storage.run({ monitor, chain }, fn)
}

/** Runs `fn` as loadrace's own work, outside any interleaving's scope: what it schedules is not the system's, and is never held. */
export function outsideSut<T>(fn: () => T): T {
  return storage.exit(fn)
}

/** Reads the chain of a fiber: set by the scheduled loader for each entry's fiber (see `scheduled-loader.ts`). */
export type ChainOfFiber = (fiber: Fiber) => string | undefined

let chainOfFiber: ChainOfFiber = () => undefined

interface Executable {
  _execute(this: Fiber, runner: unknown): unknown
}

/** The `Fiber` classes whose `_execute` is wrapped already (one per cordis copy the process loaded). */
const wrapped = new WeakSet<object>()

/**
 * Makes the work of `FiberClass`'s fibers attributable: `_execute`, where a
 * plugin's `apply`, constructor or effect body runs, re-enters the scope with
 * the chain of the loader entry owning the fiber. Once per cordis copy.
 */
export function attributeFibersOf(FiberClass: { prototype: object }): void {
  if (wrapped.has(FiberClass)) return
  const prototype = FiberClass.prototype as Executable
  const execute = prototype._execute
  if (typeof execute !== 'function') throw new Error('cordis Fiber has no _execute method: loadrace cannot attribute plugin work to loader entries')
  prototype._execute = function (this: Fiber, runner: unknown) {
    const scope = storage.getStore()
    if (scope === undefined) return execute.call(this, runner)
    const chain = chainOfFiber(this) ?? ROOT_CHAIN
    if (chain === scope.chain) return execute.call(this, runner)
    return storage.run({ monitor: scope.monitor, chain }, () => execute.call(this, runner))
  }
  wrapped.add(FiberClass)
}

/** Tells the scope which chain a fiber's work belongs to (the scheduled loader knows its entries). */
export function attributeFibersBy(reader: ChainOfFiber): void {
  chainOfFiber = reader
}
