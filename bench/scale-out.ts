import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { loadScenario } from '../harness/scenario/load.ts'
import { median, middleHalf } from './clock.ts'
import type { ScaleOutFigures, StreamRun } from './figures.ts'

/**
 * `--workers 2` against what the machine gives two streams of the same work.
 * Every stream is a process of its own (`stream-child.ts`) sweeping the same
 * plan with the runner `loadrace sweep --workers N` uses: one stream alone
 * (`--workers 1`); two such processes at once, their throughputs added (the
 * two-stream ceiling: two independent sweeps share the cores, the memory
 * bandwidth and V8's background threads exactly as two workers must); and
 * one `--workers 2` process. A fourth configuration splits what `--workers 2`
 * loses against the ceiling: two processes at once, each running its
 * interleavings in one worker process of its own (`two worker streams`). Against
 * the ceiling it gives what running in a worker process costs; `--workers 2`
 * against it, what one pool coordinating two workers costs. Wall clock.
 *
 * Every ratio is taken within a round and judged by its median over the
 * rounds. A round runs the configurations in one order and then in the
 * reverse order ({@link roundOrder}), and adds up each configuration's two
 * runs: on a shared machine whose speed drifts by a quarter within a minute,
 * a drift that is steady over the round weighs the same on every
 * configuration. (Taking each configuration's best run instead compared runs
 * from different moments: whichever configuration happened to run in the
 * machine's fastest seconds came out ahead.)
 */

const CHILD = fileURLToPath(new URL('./stream-child.ts', import.meta.url))

/** What a stream process answers to `go`. */
export interface StreamReply {
  seconds: number
  /** CPU seconds of the whole process (all its threads) meanwhile. */
  cpuSeconds: number
  /** When each interleaving completed, in ms after `go`. */
  completions: number[]
}

/** A stream process, ready for `go`. */
interface Stream {
  go(): Promise<StreamReply>
  end(): Promise<void>
}

function startStream(file: string, workers: number, interleavings: number, kind: 'sweep' | 'pool'): Promise<Stream> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['--import', 'tsx', CHILD, file, String(workers), String(interleavings), kind])
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  const exited = new Promise<number | null>(resolve => child.on('close', resolve))
  const nextLine = async (): Promise<string> => {
    const line = await lines.next()
    if (line.done) throw new Error(`a scale-out stream of ${file} exited with ${await exited}: ${stderr.trim()}`)
    return line.value
  }
  return nextLine().then((first) => {
    if (first !== 'ready') {
      child.kill()
      throw new Error(`a scale-out stream of ${file} said ${JSON.stringify(first)} instead of ready`)
    }
    return {
      go: async () => {
        child.stdin.write('go\n')
        return JSON.parse(await nextLine()) as StreamReply
      },
      end: async () => {
        child.stdin.end('end\n')
        await exited
      },
    }
  })
}

/** One stream process's run as a row; `processes` run its interleavings (the process itself, or its workers). */
function alone(configuration: StreamRun['configuration'], reply: StreamReply, processes: number): StreamRun {
  const interleavings = reply.completions.length
  return {
    configuration,
    processes,
    interleavings,
    seconds: reply.seconds,
    perSecond: interleavings / reply.seconds,
    coresUsed: reply.cpuSeconds / reply.seconds,
    cpuMsPerInterleaving: (reply.cpuSeconds * 1000) / interleavings,
  }
}

/** Two streams at once: both throughputs over the window in which both ran, added. */
export function together(configuration: 'two streams' | 'two worker streams', replies: readonly StreamReply[]): StreamRun {
  const window = Math.min(...replies.map(reply => reply.seconds))
  const interleavings = replies.reduce((sum, reply) => sum + reply.completions.filter(at => at <= window * 1000).length, 0)
  const cpuSeconds = replies.reduce((sum, reply) => sum + reply.cpuSeconds, 0)
  return {
    configuration,
    processes: replies.length,
    interleavings,
    seconds: window,
    perSecond: interleavings / window,
    coresUsed: cpuSeconds / Math.max(...replies.map(reply => reply.seconds)),
    cpuMsPerInterleaving: (cpuSeconds * 1000) / replies.reduce((sum, reply) => sum + reply.completions.length, 0),
  }
}

/**
 * The order of the runs of round `repeat`: the configurations rotated by the
 * round's number, then the same in reverse, so each configuration runs once
 * in each half and its two runs sit as far from the round's middle as each other.
 */
export function roundOrder(repeat: number): StreamRun['configuration'][] {
  const rotated = CONFIGURATIONS.map((_, k) => CONFIGURATIONS[(k + repeat) % CONFIGURATIONS.length]!)
  return [...rotated, ...[...rotated].reverse()]
}

/** A configuration's runs in one round as one run: their interleavings over their seconds, their CPU over their interleavings. */
export function combined(runs: readonly StreamRun[]): StreamRun {
  const [first] = runs
  if (first === undefined || runs.some(run => run.configuration !== first.configuration)) throw new Error('combined() takes the runs of one configuration')
  const sum = (of: (run: StreamRun) => number) => runs.reduce((total, run) => total + of(run), 0)
  const interleavings = sum(run => run.interleavings)
  const seconds = sum(run => run.seconds)
  return {
    configuration: first.configuration,
    processes: first.processes,
    interleavings,
    seconds,
    perSecond: interleavings / seconds,
    coresUsed: sum(run => run.coresUsed * run.seconds) / seconds,
    cpuMsPerInterleaving: sum(run => run.cpuMsPerInterleaving * run.interleavings) / interleavings,
  }
}

/** The best (fastest) run of each configuration, in `order`. */
function bestOf(runs: readonly StreamRun[], order: readonly StreamRun['configuration'][]): StreamRun[] {
  return order.map(configuration => runs.filter(run => run.configuration === configuration).reduce((best, run) => (run.perSecond > best.perSecond ? run : best)))
}

const CONFIGURATIONS = ['one stream', 'two streams', 'two worker streams', '--workers 2'] as const

/**
 * The figures of a scale-out from its rounds (each round holds one run of
 * every configuration, its two runs {@link combined}): each configuration's
 * best round as its row, each ratio the median over the rounds of the ratio
 * within the round, and the middle half of `--workers 2` over two streams
 * within each round.
 */
export function scaleOutFigures(scenario: string, rounds: readonly (readonly StreamRun[])[]): ScaleOutFigures {
  const rate = (round: readonly StreamRun[], configuration: StreamRun['configuration']) => {
    const run = round.find(candidate => candidate.configuration === configuration)
    if (run === undefined) throw new Error(`a round of the scale-out of ${scenario} has no run of ${configuration}`)
    return run.perSecond
  }
  const ratio = (over: StreamRun['configuration'], under: StreamRun['configuration']) => rounds.map(round => rate(round, over) / rate(round, under))
  const within = ratio('--workers 2', 'two streams')
  const ratios = {
    scaling: median(ratio('--workers 2', 'one stream')),
    ceilingScaling: median(ratio('two streams', 'one stream')),
    efficiency: median(within),
    workerProcessEfficiency: median(ratio('two worker streams', 'two streams')),
    poolEfficiency: median(ratio('--workers 2', 'two worker streams')),
  }
  return {
    scenario,
    runs: bestOf(rounds.flat(), CONFIGURATIONS),
    repeats: rounds.length,
    ...ratios,
    efficiencyRounds: { ...middleHalf(within), count: within.length },
  }
}

/**
 * Measures `file`'s scale-out: `interleavings` per stream and run,
 * `repeats` rounds of the four configurations, each run twice a round in
 * the {@link roundOrder}.
 */
export async function measureScaleOut(file: string, options: { interleavings: number, repeats: number, onRun?: (run: StreamRun) => void }): Promise<ScaleOutFigures> {
  const started = await Promise.allSettled([
    startStream(file, 1, options.interleavings, 'sweep'),
    startStream(file, 1, options.interleavings, 'sweep'),
    startStream(file, 1, options.interleavings, 'pool'),
    startStream(file, 1, options.interleavings, 'pool'),
    startStream(file, 2, options.interleavings, 'sweep'),
  ])
  const streams = started.flatMap(result => (result.status === 'fulfilled' ? [result.value] : []))
  try {
    const failed = started.find(result => result.status === 'rejected')
    if (failed) throw (failed as PromiseRejectedResult).reason
    const [first, second, firstWorker, secondWorker, pool] = streams as [Stream, Stream, Stream, Stream, Stream]
    const measure: Record<StreamRun['configuration'], () => Promise<StreamRun>> = {
      'one stream': async () => alone('one stream', await first.go(), 1),
      'two streams': async () => together('two streams', await Promise.all([first.go(), second.go()])),
      'two worker streams': async () => together('two worker streams', await Promise.all([firstWorker.go(), secondWorker.go()])),
      '--workers 2': async () => alone('--workers 2', await pool.go(), 2),
    }
    const rounds: StreamRun[][] = []
    for (let repeat = 0; repeat < options.repeats; repeat++) {
      const runs: StreamRun[] = []
      for (const configuration of roundOrder(repeat)) {
        const run = await measure[configuration]()
        options.onRun?.(run)
        runs.push(run)
      }
      rounds.push(CONFIGURATIONS.map(configuration => combined(runs.filter(run => run.configuration === configuration))))
    }
    return scaleOutFigures((await loadScenario(file)).name, rounds)
  } finally {
    await Promise.all(streams.map(stream => stream.end()))
  }
}

/** A thread that spins on arithmetic for `workerData` ms and posts how many rounds it did. */
const SPIN = `
const { parentPort, workerData } = require('node:worker_threads')
const until = performance.now() + workerData
let rounds = 0, sink = 0
while (performance.now() < until) { for (let i = 0; i < 100000; i++) sink += Math.sqrt(i); rounds++ }
parentPort.postMessage(sink > 0 ? rounds : 0)
`

function spin(ms: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SPIN, { eval: true, workerData: ms })
    worker.once('message', (rounds: number) => {
      resolve(rounds)
      void worker.terminate()
    })
    worker.once('error', reject)
  })
}

/**
 * What the machine itself gives two threads right now: pure arithmetic on two
 * threads over the same on one (2.0 on two free cores) — no allocation, no
 * garbage collection, unlike a sweep.
 */
export async function machineScaling(ms = 1500): Promise<number> {
  const one = await spin(ms)
  const two = await Promise.all([spin(ms), spin(ms)])
  return (two[0] + two[1]) / one
}
