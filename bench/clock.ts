import { Bench } from 'tinybench'

/**
 * Side-by-side timing. Every figure the bench reports about cost is a ratio
 * of two tasks measured in the same process, interleaved round by round, on
 * the process CPU clock (all threads, GC included): on a shared machine the
 * time other processes take from us then counts for neither side. A figure
 * about idle waiting (time in which the process uses no CPU) is taken the
 * same way on the wall clock instead (`now: wallNow`).
 */

/** Milliseconds of CPU time this process has used so far (user + system, every thread). */
export function cpuNow(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/** Milliseconds of wall-clock time (monotonic). */
export function wallNow(): number {
  return performance.now()
}

/** One task of a comparison; `batch` calls make one timed sample. */
export interface TimedTask {
  name: string
  run: () => unknown
}

/** What one task cost: the median over rounds of each round's mean, per call. */
export interface TaskCost {
  name: string
  /** Milliseconds per call, on the comparison's clock (CPU unless `now` says otherwise). */
  msPerCall: number
  /** Calls timed, over all rounds. */
  calls: number
  /** This task's per-call cost over the first task's, median over rounds. */
  ratio: number
  /** The per-call cost of each round (the mean of its samples: its total over its calls). */
  perRound: number[]
  /** The `Error.stackTraceLimit` in force around every timed batch of this task; null when it was not the same throughout. */
  stackTraceLimit: number | null
}

/** How long and how finely to compare. */
export interface CompareOptions {
  /** Rounds; tasks run in rotated order each round. */
  rounds: number
  /** Milliseconds per task per round on the comparison's clock (tinybench `time`). */
  msPerRound: number
  /** Samples per task per round at the least, however long they take (tinybench `iterations`); default 5. */
  minSamples?: number
  /** Calls per timed sample, so that a sample is long next to the clock's own cost. */
  batch: number
  /** Untimed calls of each task before the first round. */
  warmupCalls: number
  /** The clock: `cpuNow` (default) or `wallNow`. */
  now?: () => number
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

async function repeat(run: () => unknown, times: number): Promise<void> {
  for (let i = 0; i < times; i++) await run()
}

/**
 * Times `tasks` side by side with tinybench on the CPU clock (or `options.now`). The first task is
 * the reference: every `ratio` is relative to it. Each round runs every task
 * for `msPerRound` (rotating which goes first) and records its mean per call
 * (what a sweep pays: a cost that comes every few calls counts at its share);
 * the reported cost and ratio are medians over rounds, so one disturbed round
 * does not move them.
 */
export async function compareTasks(tasks: readonly TimedTask[], options: CompareOptions): Promise<TaskCost[]> {
  for (const task of tasks) await repeat(task.run, options.warmupCalls)
  const perRound = tasks.map((): number[] => [])
  const calls = tasks.map(() => 0)
  // What each task ran under: a cost taken with the system's stack captures off is not comparable with one taken with them on.
  const limits = tasks.map(() => new Set<unknown>())
  const underLimit = async (index: number, run: () => unknown) => {
    limits[index]!.add(Error.stackTraceLimit)
    await run()
    limits[index]!.add(Error.stackTraceLimit)
  }
  for (let round = 0; round < options.rounds; round++) {
    const bench = new Bench({ now: options.now ?? cpuNow, time: options.msPerRound, iterations: options.minSamples ?? 5, warmup: false })
    const order = tasks.map((_, index) => (index + round) % tasks.length)
    for (const index of order) {
      const task = tasks[index]!
      bench.add(task.name, () => underLimit(index, () => repeat(task.run, options.batch)), { async: true })
    }
    await bench.run()
    for (const index of order) {
      const result = bench.getTask(tasks[index]!.name)?.result
      if (result === undefined || !('latency' in result)) throw new Error(`bench task ${tasks[index]!.name} produced no statistics`)
      // The mean, not the median sample: a collection or a kernel call the task pays for every few calls lands in a
      // minority of samples, and the median would leave it out (more of it on a side whose samples are bimodal).
      perRound[index]!.push(result.latency.mean / options.batch)
      calls[index]! += result.latency.samplesCount * options.batch
    }
  }
  const reference = perRound[0]!
  return tasks.map((task, index) => ({
    name: task.name,
    msPerCall: median(perRound[index]!),
    calls: calls[index]!,
    ratio: median(perRound[index]!.map((cost, round) => cost / reference[round]!)),
    perRound: perRound[index]!,
    stackTraceLimit: limits[index]!.size === 1 && typeof [...limits[index]!][0] === 'number' ? [...limits[index]!][0] as number : null,
  }))
}

/** Each described variant with what its task cost (`costs` in the same order): the figures a boot comparison reports. */
export function withCosts<T extends object>(described: readonly T[], costs: readonly TaskCost[]): (T & { msPerRun: number, ratio: number, stackTraceLimit: number | null, perRound: number[] })[] {
  return described.map((variant, index) => {
    const cost = costs[index]
    if (cost === undefined) throw new Error(`no cost measured for variant ${index + 1} of ${described.length}`)
    return { ...variant, msPerRun: cost.msPerCall, ratio: cost.ratio, stackTraceLimit: cost.stackTraceLimit, perRound: cost.perRound }
  })
}

/** `over`'s per-call cost over `under`'s in each round both ran in (each round measures both side by side). */
export function roundRatios(over: Pick<TaskCost, 'perRound'>, under: Pick<TaskCost, 'perRound'>): number[] {
  return over.perRound.slice(0, under.perRound.length).map((cost, round) => cost / under.perRound[round]!)
}

/** `over`'s per-call cost over `under`'s, median over the rounds both ran in. */
export function ratioOver(over: TaskCost, under: TaskCost): number {
  return median(roundRatios(over, under))
}

/** The middle half of `values`: their nearest-rank 25th and 75th percentiles. */
export function middleHalf(values: readonly number[]): { low: number, high: number } {
  if (values.length === 0) throw new Error('no values to take the middle half of')
  const sorted = [...values].sort((a, b) => a - b)
  const rank = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!
  return { low: rank(0.25), high: rank(0.75) }
}
