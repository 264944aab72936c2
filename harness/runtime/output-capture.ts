/**
 * What the system under test prints. Plugins write to stdout and stderr
 * while they boot — cordis loggers, `console.log`, a stray
 * `process.stderr.write` — and on the terminal their lines would mix into
 * loadrace's own, once per interleaving, and break `--reporter json`. While
 * an interleaving runs, writes made by its system's code (told by the
 * runtime's `AsyncLocalStorage` scope, as crashes are) are captured per
 * interleaving instead, never printed; loadrace's own output (its lines, the
 * heartbeat, the progress line) goes through untouched. What was captured is
 * not part of the projection: printing is no model-facing byte.
 *
 * Captured are `process.stdout.write`, `process.stderr.write` (routed by
 * scope from the first interleaving of a thread on, so that what the system
 * writes after its interleaving ended — a disposer that logs — is dropped,
 * not printed) and the console's printing methods while an interleaving runs
 * (whatever console object is installed: a test runner replaces it). A write
 * to the file descriptor itself (`fs.writeSync(1, …)`) and what a module
 * prints while it is first imported are not.
 */
import { formatWithOptions } from 'node:util'
import { currentScope, type SutMonitor } from './sut-context.ts'
import { ROOT_CHAIN } from '../space/space.ts'

/** One stretch of what the system printed on one stream, from one entry's code. */
export interface OutputChunk {
  stream: 'stdout' | 'stderr'
  /** The loader entry whose code printed it; null for the base composition. */
  entry: string | null
  text: string
}

/** What the system printed in one interleaving, in order (at most {@link MAX_CAPTURED} characters of it). */
export interface SystemOutput {
  chunks: OutputChunk[]
  /** Characters printed beyond {@link MAX_CAPTURED}, not kept. */
  omitted: number
}

/** The most characters kept of one interleaving's output. */
export const MAX_CAPTURED = 64 * 1024

type Write = (chunk: unknown, encoding?: unknown, callback?: unknown) => boolean

/** The console methods that print, and the stream each prints to. */
const CONSOLE_METHODS = { log: 'stdout', info: 'stdout', debug: 'stdout', warn: 'stderr', error: 'stderr' } as const
type ConsoleMethod = keyof typeof CONSOLE_METHODS

function textOf(chunk: unknown, encoding: unknown): string {
  if (typeof chunk === 'string') return chunk
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString(typeof encoding === 'string' && Buffer.isEncoding(encoding) ? encoding : 'utf8')
  return String(chunk)
}

/** The capture of the interleaving running in this thread now (one at a time), if any. */
let active: OutputCapture | undefined

/** Where a write goes: `through` to the stream (loadrace's own), or `kept` by this interleaving's capture, or `dropped` (an interleaving that ended). */
function route(): { kind: 'through' } | { kind: 'kept', capture: OutputCapture, chain: string } | { kind: 'dropped' } {
  const scope = currentScope()
  if (scope === undefined) return { kind: 'through' }
  return active !== undefined && active.monitor === scope.monitor ? { kind: 'kept', capture: active, chain: scope.chain } : { kind: 'dropped' }
}

let streamsPatched = false

/**
 * Routes every write to this thread's stdout and stderr through {@link route}.
 * Installed once, for good: the system's code may still write after its
 * interleaving ended (a disposer that logs), and such a write is dropped,
 * never printed.
 */
function patchStreams(): void {
  if (streamsPatched) return
  streamsPatched = true
  for (const stream of ['stdout', 'stderr'] as const) {
    const target = process[stream] as unknown as { write: Write }
    const original = target.write
    target.write = function (this: unknown, chunk, encoding, callback) {
      const to = route()
      if (to.kind === 'through') return original.call(this, chunk, encoding, callback)
      if (to.kind === 'kept') to.capture.keep(stream, to.chain, textOf(chunk, encoding))
      const done = typeof encoding === 'function' ? encoding : callback
      if (typeof done === 'function') process.nextTick(done as () => void)
      return true
    }
  }
}

export class OutputCapture {
  private readonly chunks: OutputChunk[] = []
  private kept = 0
  private omitted = 0
  private readonly restore: (() => void)[] = []

  constructor(readonly monitor: SutMonitor) {}

  /** Keeps what the system's chain `chain` printed on `stream`, up to {@link MAX_CAPTURED} characters in all. */
  keep(stream: OutputChunk['stream'], chain: string, text: string): void {
    if (text === '') return
    const room = MAX_CAPTURED - this.kept
    const kept = text.length <= room ? text : text.slice(0, Math.max(0, room))
    this.omitted += text.length - kept.length
    if (kept === '') return
    this.kept += kept.length
    const entry = chain === ROOT_CHAIN ? null : chain
    const last = this.chunks.at(-1)
    if (last !== undefined && last.stream === stream && last.entry === entry) last.text += kept
    else this.chunks.push({ stream, entry, text: kept })
  }

  /** The console's printing methods, for this interleaving: whatever console is installed (a test runner replaces it). */
  private patchConsole(): void {
    const console = globalThis.console as unknown as Record<ConsoleMethod, (...args: unknown[]) => void>
    for (const [method, stream] of Object.entries(CONSOLE_METHODS) as [ConsoleMethod, OutputChunk['stream']][]) {
      const original = console[method]
      if (typeof original !== 'function') continue
      const patched = function (this: unknown, ...args: unknown[]) {
        const to = route()
        if (to.kind === 'through') return original.apply(this, args)
        if (to.kind === 'kept') to.capture.keep(stream, to.chain, `${formatWithOptions({ colors: false }, ...args)}\n`)
      }
      console[method] = patched
      this.restore.push(() => { if (console[method] === patched) console[method] = original })
    }
  }

  /** Starts capturing the system's writes: this interleaving's from now on. */
  install(): void {
    patchStreams()
    active = this
    this.patchConsole()
  }

  /** Stops capturing: the console is as it was; later writes of this system are dropped. */
  dispose(): void {
    if (active === this) active = undefined
    for (const undo of this.restore.splice(0).reverse()) undo()
  }

  /** What was captured so far; undefined when the system printed nothing. */
  read(): SystemOutput | undefined {
    if (this.chunks.length === 0 && this.omitted === 0) return undefined
    return { chunks: this.chunks.map(chunk => ({ ...chunk })), omitted: this.omitted }
  }
}
