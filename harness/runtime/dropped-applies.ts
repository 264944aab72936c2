/**
 * The promise an `apply` returns when cordis does not await it. Cordis calls
 * an `async function`, an arrow function or a method shorthand and awaits
 * the promise it returns, so a boot waits for it (and an `apply` that never
 * settles leaves the boot waiting forever: stuck, as dsh's own boot is). A
 * plain `function` — anything with a `prototype`, such as `export function
 * apply` — is constructed with `new`, and the promise it returns is dropped:
 * the entry counts as active at once.
 *
 * loadrace gives both shapes one verdict. A plain-function `apply` whose
 * promise never settles is the same defect as an awaited one that never
 * settles — the plugin's start-up never finishes, and whatever it was going
 * to register never arrives — so the boot waits for such a promise too, and
 * the interleaving is stuck when nothing can ever settle it. A promise that
 * does settle (after a timer, say) settles before the turns start, as it does
 * on any machine where the first message arrives after start-up. One that
 * rejects stays unhandled, exactly as cordis leaves it: the system's crash.
 *
 * To see the promise, the plugin the loader is handed has its plain-function
 * callback behind a `construct` trap that reports a thenable result to the
 * interleaving running it; everything else about the plugin is untouched.
 */
import { Loader } from '@deepseek-ai/cordis-plugin-loader'
import { currentScope } from './sut-context.ts'

type Callback = (...args: unknown[]) => unknown

/** A plain `function` cordis constructs with `new`: has a prototype, and is neither a class nor a generator. */
function constructedPlainFunction(value: unknown): value is Callback {
  if (typeof value !== 'function' || value.prototype === undefined) return false
  const source = Function.prototype.toString.call(value)
  return !/^class\b/.test(source) && !/^(async\s+)?function\s*\*/.test(source)
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function'
}

/** `callback` behind a `construct` trap that reports a thenable it returns to the interleaving in whose scope it runs. */
function observedCallback(callback: Callback): Callback {
  const observed: Callback = new Proxy(callback, {
    construct(target, args, newTarget) {
      const instance = Reflect.construct(target, args, newTarget === observed ? target : newTarget) as unknown
      const scope = currentScope()
      if (scope !== undefined && isThenable(instance)) scope.monitor.applyReturned?.(instance, scope.chain)
      return instance as object
    },
  })
  return observed
}

/** The plugin, with its callback observed when cordis will construct it; the plugin itself otherwise. */
function observedPlugin(plugin: unknown): unknown {
  if (constructedPlainFunction(plugin)) return observedCallback(plugin)
  if (typeof plugin !== 'object' || plugin === null) return plugin
  const apply = (plugin as { apply?: unknown }).apply
  if (!constructedPlainFunction(apply)) return plugin
  const observed = observedCallback(apply)
  return new Proxy(plugin, { get: (target, key, receiver) => key === 'apply' ? observed : Reflect.get(target, key, receiver) })
}

const handed = new WeakMap<object, object>()

/**
 * What the scheduled import hands the loader for a module's namespace: the
 * namespace itself, or — when the plugin the loader would take from it
 * (`unwrapExports`) is a plain function, or has one as `apply` — a namespace
 * whose default export is that plugin observed. The same object for the same
 * namespace, so every interleaving runs the same plugin.
 */
export function observedNamespace(namespace: object): object {
  let result = handed.get(namespace)
  if (result === undefined) {
    const plugin = Loader.prototype.unwrapExports(namespace) as unknown
    const observed = observedPlugin(plugin)
    result = observed === plugin ? namespace : { default: observed }
    handed.set(namespace, result)
  }
  return result
}

/** One dropped promise of an `apply`: whose, and whether it settled. */
interface Dropped {
  chain: string
  settled: boolean
  done: Promise<void>
}

/**
 * The dropped `apply` promises of one interleaving. Watching one never
 * handles it: a rejection stays unhandled (the handler rethrows it), as it is
 * when cordis drops it.
 */
export class DroppedApplies {
  private readonly dropped: Dropped[] = []

  add(promise: PromiseLike<unknown>, chain: string): void {
    let settle!: () => void
    const record: Dropped = { chain, settled: false, done: new Promise<void>(resolve => { settle = resolve }) }
    this.dropped.push(record)
    const mark = () => {
      record.settled = true
      settle()
    }
    // The derived promise rejects with the same reason and nothing handles it: still the system's unhandled rejection.
    void promise.then(mark, (error: unknown) => {
      mark()
      throw error
    })
  }

  /** The chains whose dropped promise has not settled, each once. */
  unsettled(): string[] {
    return [...new Set(this.dropped.filter(record => !record.settled).map(record => record.chain))]
  }

  /** Settles once every dropped promise has settled, those dropped meanwhile included. */
  async settled(): Promise<void> {
    for (;;) {
      const waiting = this.dropped.filter(record => !record.settled)
      if (waiting.length === 0) return
      await Promise.all(waiting.map(record => record.done))
    }
  }
}
