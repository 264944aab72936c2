/**
 * The system's crash. A plugin that calls `process.exit`, throws from a
 * callback after its `apply` returned, or leaves a rejection unhandled would
 * end dsh's process on that machine — and it may do so in some load orders
 * only. That is a finding about the system, not a failure of loadrace: the
 * interleaving ends there with outcome `crashed`, and the rest of the sweep
 * goes on.
 *
 * While an interleaving runs, the thread's crash channels are its own:
 * `process.exit` is replaced, and the `uncaughtException` and
 * `unhandledRejection` listeners already installed (a test runner's, say)
 * are set aside and put back afterwards. Who raised a crash is told by the
 * runtime's `AsyncLocalStorage` scope (`sut-context.ts`), which Node keeps
 * for both events: code of this interleaving's system is the system's crash,
 * attributed to the loader entry whose code it is; code outside any scope is
 * loadrace's own, and fails the interleaving as an internal error (exit 3).
 * Code of an interleaving that already ended (an I/O callback it left) is
 * neither, and ignored. A listener the system itself installed handles its
 * own errors, as it would in dsh: then nothing crashed.
 *
 * In a worker thread or a child process the same happens there, so the
 * verdict does not depend on where the interleaving ran. (`process.abort()`,
 * signals and native crashes are not caught.)
 */
import { describeThrown } from '../scenario/import-failure.ts'
import type { Crash } from '../verdict/outcome.ts'
import { currentScope, type SutMonitor } from './sut-context.ts'
import { ROOT_CHAIN } from '../space/space.ts'

/** Thrown from the replaced `process.exit` to stop the system's code where the process would have ended. */
export class SystemExit extends Error {
  constructor(readonly code: number) {
    super(`process.exit(${code}) ended the system under test here (loadrace ended the interleaving)`)
    this.name = 'SystemExit'
  }
}

type Listener = (...args: unknown[]) => void

const EVENTS = ['uncaughtException', 'unhandledRejection'] as const

/** What the watch tells the interleaving. */
export interface CrashReports {
  /** The system crashed (called once at most). */
  crashed(crash: Crash): void
  /** loadrace's own code threw where nothing caught it. */
  failed(error: unknown): void
}

/** The entry a chain names: its label, or null for the base composition. */
function entryOf(chain: string): string | null {
  return chain === ROOT_CHAIN ? null : chain
}

export class CrashWatch {
  private installed = false
  private ended = false
  private readonly setAside = new Map<string, Listener[]>()
  private readonly listeners = new Map<string, Listener>()
  private originalExit: typeof process.exit | undefined
  private replacedExit: typeof process.exit | undefined

  constructor(private readonly monitor: SutMonitor, private readonly reports: CrashReports) {}

  /** Whose code runs now: this interleaving's system (with its chain), loadrace's (`harness`), or an ended interleaving's (`stale`). */
  private who(): { kind: 'system', chain: string } | { kind: 'harness' } | { kind: 'stale' } {
    const scope = currentScope()
    if (scope === undefined) return { kind: 'harness' }
    return scope.monitor === this.monitor ? { kind: 'system', chain: scope.chain } : { kind: 'stale' }
  }

  private crash(crash: Crash): void {
    if (this.ended) return
    this.ended = true
    this.reports.crashed(crash)
  }

  /** An uncaught exception or unhandled rejection reached the thread. */
  private raised(event: typeof EVENTS[number], error: unknown): void {
    if (error instanceof SystemExit) return
    const who = this.who()
    if (who.kind === 'stale') return
    if (who.kind === 'harness') {
      if (!this.ended) this.reports.failed(error)
      return
    }
    // A listener of the system's own handles what it raises, as in dsh.
    if ((process.listeners(event as 'uncaughtException') as Listener[]).some(listener => listener !== this.listeners.get(event))) return
    this.crash({ kind: event === 'uncaughtException' ? 'uncaught-exception' : 'unhandled-rejection', entry: entryOf(who.chain), error: describeThrown(error) })
  }

  /** Takes over `process.exit` and the crash events for this interleaving. */
  install(): void {
    if (this.installed) return
    this.installed = true
    for (const event of EVENTS) {
      this.setAside.set(event, process.rawListeners(event) as Listener[])
      process.removeAllListeners(event)
      const listener: Listener = error => this.raised(event, error)
      this.listeners.set(event, listener)
      process.on(event, listener)
    }
    const original = process.exit
    this.originalExit = original
    const watch = this
    this.replacedExit = function exit(code?: number | string | null) {
      const who = watch.who()
      if (who.kind !== 'system') return original.call(process, code)
      const value = Number(code ?? process.exitCode ?? 0)
      if (!Number.isInteger(value)) return original.call(process, code)
      watch.crash({ kind: 'exit', entry: entryOf(who.chain), code: value })
      throw new SystemExit(value)
    } as typeof process.exit
    process.exit = this.replacedExit
  }

  /** Gives the thread its crash channels back. */
  dispose(): void {
    if (!this.installed) return
    this.installed = false
    this.ended = true
    if (process.exit === this.replacedExit) process.exit = this.originalExit!
    for (const event of EVENTS) {
      process.removeListener(event, this.listeners.get(event)!)
      for (const listener of this.setAside.get(event) ?? []) process.on(event, listener)
    }
    this.setAside.clear()
    this.listeners.clear()
  }
}
