/**
 * The one Node 22 API the published dsh packages need on Node 20.
 *
 * `dsh-agent-loop`, `dsh-agent` and `dsh-session-persistence` call
 * `Promise.withResolvers()`, which Node 20 lacks. loadrace's own reference
 * never uses it, so the function is supplied lazily: only when it is missing,
 * and only once the dsh target mounts its first composition. Once supplied it
 * stays for the life of the process (agents created earlier may still call it).
 */

interface Resolvers {
  promise: Promise<unknown>
  resolve: (value: unknown) => void
  reject: (reason?: unknown) => void
}

function withResolvers(this: PromiseConstructor): Resolvers {
  let resolve!: (value: unknown) => void
  let reject!: (reason?: unknown) => void
  // `this` keeps subclass construction working, as the standard method does.
  const promise = new this<unknown>((onResolve, onReject) => {
    resolve = onResolve
    reject = onReject
  })
  return { promise, resolve, reject }
}

/** The shims this process supplied so far, for the report. */
const supplied: string[] = []

/** The shims the dsh target supplied in this process (`Promise.withResolvers` on Node 20; none on Node 22). */
export function suppliedShims(): readonly string[] {
  return supplied
}

/** Supplies `Promise.withResolvers` when this process lacks it; a no-op otherwise (Node 22+, or already supplied). */
export function ensurePromiseWithResolvers(): void {
  if (typeof Reflect.get(Promise, 'withResolvers') === 'function') return
  supplied.push('Promise.withResolvers')
  Object.defineProperty(Promise, 'withResolvers', {
    value: withResolvers,
    writable: true,
    configurable: true,
    enumerable: false,
  })
}
