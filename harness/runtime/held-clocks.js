// @ts-check
/**
 * The clocks the system reads, held: `Date` (`Date.now()`, `new Date()`,
 * `Date()`), `performance.now()`, `performance.timeOrigin`, `process.hrtime()`
 * and `process.hrtime.bigint()` all read one held time instead of the real
 * one whenever `reading()` gives a number (the system's code is running), and
 * the real clocks otherwise (loadrace's own code).
 *
 * Held time is milliseconds after {@link EPOCH_MS}: `Date.now()` is
 * `EPOCH_MS` plus it (rounded down), `performance.now()` the time itself
 * (with `performance.timeOrigin` at `EPOCH_MS`), `process.hrtime` counts from
 * a fixed origin. What `reading()` returns is the interleaving's business
 * (`operations.ts`: the virtual clock, plus a microsecond per read so a loop
 * waiting for time to pass still ends).
 *
 * Plain JavaScript: a worker thread the system starts installs the same
 * clocks before its own code runs (`worker-threads.ts`), with a reading of its
 * own, through a preload that has no TypeScript loader.
 */

/** The held epoch: what `Date.now()` gives at held time 0 (2025-01-01T00:00:00Z). */
export const EPOCH_MS = Date.UTC(2025, 0, 1)

/** `process.hrtime`'s value at held time 0, in ns. */
const HRTIME_ORIGIN_NS = 1_000_000_000_000n

/**
 * Replaces this realm's clocks by held ones that read `reading(api)`, `api`
 * naming the clock read (`Date.now`, `performance.now`, …).
 * @param {(api: string) => number | undefined} reading held ms, or undefined for the real clocks
 */
export function holdClocks(reading) {
  const RealDate = Date
  const realNow = RealDate.now
  const performance = globalThis.performance
  const realPerformanceNow = performance.now.bind(performance)
  const realTimeOrigin = performance.timeOrigin
  const realHrtime = process.hrtime
  const realBigint = process.hrtime.bigint

  /** @param {number} ms */
  const dateMs = ms => Math.floor(EPOCH_MS + ms)
  /** @param {number} ms */
  const hrtimeNs = ms => HRTIME_ORIGIN_NS + BigInt(Math.round(ms * 1e6))

  RealDate.now = () => {
    const ms = reading('Date.now')
    return ms === undefined ? realNow() : dateMs(ms)
  }
  globalThis.Date = new Proxy(RealDate, {
    construct(target, args, newTarget) {
      const ms = args.length === 0 ? reading('new Date()') : undefined
      return Reflect.construct(target, ms === undefined ? args : [dateMs(ms)], newTarget)
    },
    apply(target, self, args) {
      const ms = reading('Date()')
      return ms === undefined ? Reflect.apply(target, self, args) : new RealDate(dateMs(ms)).toString()
    },
  })
  performance.now = () => {
    const ms = reading('performance.now')
    return ms === undefined ? realPerformanceNow() : ms
  }
  Object.defineProperty(performance, 'timeOrigin', {
    configurable: true,
    enumerable: true,
    get: () => reading('performance.timeOrigin') === undefined ? realTimeOrigin : EPOCH_MS,
  })
  const hrtime = /** @type {typeof process.hrtime} */ ((previous) => {
    const ms = reading('process.hrtime')
    if (ms === undefined) return realHrtime(previous)
    let ns = hrtimeNs(ms)
    if (previous !== undefined) ns -= BigInt(previous[0]) * 1_000_000_000n + BigInt(previous[1])
    return [Number(ns / 1_000_000_000n), Number(ns % 1_000_000_000n)]
  })
  hrtime.bigint = () => {
    const ms = reading('process.hrtime.bigint')
    return ms === undefined ? realBigint() : hrtimeNs(ms)
  }
  process.hrtime = hrtime
}

/**
 * A reading for a realm whose every read is the system's: held time `start`,
 * plus a microsecond per read.
 * @param {number} start
 * @returns {() => number}
 */
export function steppedReading(start) {
  let reads = 0
  return () => start + ++reads * 0.001
}
