import { fileURLToPath } from 'node:url'

/**
 * Stack captures cordis makes on behalf of the code that reads a context.
 *
 * Cordis's context proxy answers a read of a property the context does not
 * hold (a service, a mixin such as `ctx.on`) by first building an `Error`, so
 * that a failed lookup can say where it was made; with the system's stacks
 * intact, each of those is a stack capture. This module counts them while a
 * task runs, by the code that made the read: the frame right below the
 * proxy's `get` trap. It is a count, not a time, so it is the same on every
 * run of the same code however loaded the machine is.
 */

/** The project's root folder, to tell loadrace's own frames from the system's. */
const PROJECT = fileURLToPath(new URL('..', import.meta.url))

/** Cordis's context proxy traps (`ReflectService.handler`), shared by every context of one cordis copy. */
interface ProxyHandler {
  get(target: object, prop: string | symbol, receiver: object): unknown
}

/** A context of the cordis copy to count on (any one: the traps are the class's). */
interface AnyContext {
  reflect: { constructor: { handler?: ProxyHandler } }
}

/** One reader of context properties that made cordis capture a stack. */
export interface CaptureSite {
  /** The property read. */
  prop: string
  /** The reading frame's file, relative to the project (`harness/…`, `src/…`, `node_modules/…`), without line. */
  file: string
  /** The reading function's name, or `(anonymous)`. */
  caller: string
}

/** What a task cost in stack captures. */
export interface CaptureCount {
  /** Captures per run, every reader together. */
  perRun: number
  /** Captures per run made by loadrace's own code (a frame under `harness/`), by site. */
  loadrace: { site: CaptureSite, perRun: number }[]
}

/** Properties cordis reads without the lookup (its `isSpecialProperty`: symbols, `prototype`, `then`, indices, `_…`): never a capture. */
function isSpecial(prop: string | symbol): boolean {
  return typeof prop === 'symbol' || prop === 'prototype' || prop === 'then' || String(Number.parseInt(prop)) === prop || prop.startsWith('_')
}

/** The frame below the trap: `at caller (file:line:col)` or `at file:line:col`. */
function readerOf(prop: string): CaptureSite {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 3
  const stack = new Error('reader').stack ?? ''
  Error.stackTraceLimit = limit
  // Lines: the message, this function, the counting trap, the reader.
  const line = stack.split('\n')[3]?.trim() ?? ''
  const match = /^at (?:(.*?) \()?(.*?):\d+:\d+\)?$/.exec(line)
  const location = (match?.[2] ?? line).replace(/^file:\/\//, '')
  return {
    prop,
    file: location.startsWith(PROJECT) ? location.slice(PROJECT.length) : location,
    caller: match?.[1] ?? '(anonymous)',
  }
}

/**
 * Runs `task` `runs` times and counts the captures cordis's context proxy
 * made meanwhile, on the cordis copy `context` belongs to. The count wraps
 * the proxy's `get` trap for the duration only (traps are looked up at every
 * access, so contexts made before count too) and puts it back afterwards.
 */
export async function countCaptures(context: AnyContext, task: () => Promise<unknown>, runs: number): Promise<CaptureCount> {
  const handler = context.reflect.constructor.handler
  if (handler === undefined || typeof handler.get !== 'function') throw new Error('this cordis copy has no context proxy traps to count on')
  const original = handler.get
  let total = 0
  const sites = new Map<string, { site: CaptureSite, count: number }>()
  handler.get = (target, prop, receiver) => {
    if (!isSpecial(prop) && !Reflect.has(target, prop)) {
      total++
      const site = readerOf(prop as string)
      if (site.file.startsWith('harness/')) {
        const key = `${site.prop} ${site.file} ${site.caller}`
        const seen = sites.get(key) ?? { site, count: 0 }
        seen.count++
        sites.set(key, seen)
      }
    }
    return original(target, prop, receiver)
  }
  try {
    for (let i = 0; i < runs; i++) await task()
  } finally {
    handler.get = original
  }
  return {
    perRun: total / runs,
    loadrace: [...sites.values()].map(({ site, count }) => ({ site, perRun: count / runs })).sort((a, b) => b.perRun - a.perRun),
  }
}
