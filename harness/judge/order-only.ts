/**
 * Evidence before `uncontrolled`: an interleaving whose controlled runs gave
 * different bytes is rerun with loadrace's control of timers and clocks off,
 * the import order still held (`control: 'order-only'`). When those runs
 * agree with each other, the system gives the same bytes for that order
 * without loadrace's help, so the difference is loadrace's own doing: the
 * verdict is `harness-fault` — loadrace's failure, naming what it held and may
 * have failed to hold, never a verdict about the system — provided one more
 * controlled run, right after them, still gives other bytes than they do.
 * When they vary too (module-level state, randomness, real time in the
 * bytes), or that controlled run gives their bytes (the system changed from
 * one run to the next), the variation is the system's either way, and the
 * verdict stays `uncontrolled`, saying so.
 */
import { bytesDifference } from '../oracle/compare.ts'
import type { RunCache } from '../runners/run-cache.ts'
import type { InterleavingRecord } from '../runners/runner.ts'
import type { HeldResources } from '../runtime/run-state.ts'
import type { Analysis, HarnessFault, OrderOnlyReruns, UncontrolledReplay } from '../verdict/verdict.ts'

/**
 * How many times at most an interleaving about to be called uncontrolled runs
 * with loadrace's control of timers and clocks off. They stop at the first
 * that differs from the first (the system varies either way: uncontrolled);
 * only a system that agrees with itself this many times running free can
 * blame loadrace. So many, because a system that draws at random between two
 * outcomes agrees with itself n times by chance once in 2^(n−1): here once in
 * 32 768, where 3 runs blamed loadrace once in 4.
 */
export const ORDER_ONLY_RERUNS = 16

/** An interleaving whose controlled runs disagree, with what judging it needs. */
export interface Unreproduced {
  /** What `uncontrolled` would report. */
  replay: UncontrolledReplay
  /** The schedule its token names. */
  schedule: string[]
  /** The controlled runs that disagree (explored, or the first host's: possibly a hash only; then the rerun). */
  controlled: [Partial<Pick<InterleavingRecord, 'held'>> & { hash: string, json?: string }, InterleavingRecord & { json: string }]
  /** Where it runs afresh (its host's runs). */
  cache: RunCache
}

/** Words for the real I/O kinds `real-io.ts` records. */
const IO_WORDS: Readonly<Record<string, string>> = {
  PROCESSWRAP: 'a child process',
  PIPEWRAP: 'a pipe',
  PIPESERVERWRAP: 'a pipe server',
  TCPWRAP: 'a socket',
  TCPSERVERWRAP: 'a server socket',
  UDPWRAP: 'a UDP socket',
  FSEVENTWRAP: 'a file watcher',
  STATWATCHER: 'a file watcher',
  WORKER: 'a worker thread',
}

/** At most this many timers are named; the rest are counted. */
const NAMED_TIMERS = 3

/**
 * What loadrace held in the controlled runs, in words: the clocks the system
 * read held time from, the timers it held, and the real I/O whose timing it
 * paced timers by; one of them is what it failed to hold. Says so when the
 * runs recorded none.
 */
export function heldResourceOf(runs: readonly (Partial<Pick<InterleavingRecord, 'held'>>)[]): string {
  const held = runs.flatMap(run => run.held === undefined ? [] : [run.held])
  if (held.length === 0) return 'not determined: the controlled runs recorded nothing loadrace held'
  const clocks = [...new Set(held.flatMap(h => h.clocks.map(clock => clock.api)))]
  const timers = new Map<string, HeldResources['timers'][number]>()
  for (const h of held) for (const timer of h.timers) timers.set(timer.label, timer)
  const io = [...new Set(held.flatMap(h => h.io.map(kind => IO_WORDS[kind] ?? kind)))]
  const candidates: string[] = []
  if (clocks.length > 0) candidates.push(`${clocks.length === 1 ? 'a clock' : 'clocks'} (${clocks.join(', ')})`)
  if (timers.size > 0) {
    const named = [...timers.values()].slice(0, NAMED_TIMERS).map(timer => `${timer.repeats ? 'setInterval' : 'setTimeout'} ${timer.delay} ms, ${timer.label}`)
    const more = timers.size > NAMED_TIMERS ? `; ${timers.size - NAMED_TIMERS} more` : ''
    candidates.push(`${timers.size === 1 ? 'a timer' : 'timers'} (${named.join('; ')}${more})`)
  }
  for (const kind of io) candidates.push(kind)
  if (candidates.length === 0) return 'not determined: the controlled runs read no held clock, held no timer and opened no process, pipe, socket or thread'
  return candidates.length === 1 ? candidates[0]! : `one of: ${candidates.join('; ')}`
}

/** The first part in which `controlled` and `orderOnly` differ, and its diff (controlled → order-only). */
function faultDifference(token: string, controlled: string, orderOnly: string): Pick<HarnessFault, 'part' | 'diff' | 'firstDifference' | 'endings'> {
  return bytesDifference(controlled, orderOnly, [`${token} (controlled)`, `${token} (order-only)`])
}

/**
 * The verdict on an interleaving whose controlled runs disagree: it runs
 * up to {@link ORDER_ONLY_RERUNS} times with loadrace's control of timers and
 * clocks off, then once more under control, side by side with them.
 * `harness-fault` when the order-only runs agree and the controlled run
 * after them still gives other bytes: only loadrace's control makes the
 * difference. Otherwise `uncontrolled`, with what the runs showed: the
 * order-only runs varied too, or one timed out (no evidence), or the
 * controlled run now gives their bytes (the system changed from run to run,
 * as module-level state that flips once does).
 */
export async function orderOnlyVerdict(found: Unreproduced): Promise<Analysis> {
  const runs: (InterleavingRecord & { json: string })[] = []
  for (let time = 0; time < ORDER_ONLY_RERUNS; time++) {
    const run = await found.cache.orderOnly(found.schedule)
    runs.push(run)
    if (run.hash !== runs[0]!.hash || run.stuck?.reason === 'timeout') break
  }
  const hashes = runs.map(run => run.hash)
  const timedOut = runs.some(run => run.stuck?.reason === 'timeout')
  const agree = new Set(hashes).size === 1
  if (!agree || timedOut) return { verdict: 'uncontrolled', uncontrolled: { ...found.replay, orderOnly: { hashes, agree, ...timedOut ? { timedOut: true as const } : {} } } }
  const stable = runs[0]!
  const after = await found.cache.rerun(found.schedule)
  const evidence: OrderOnlyReruns = { hashes, agree, controlledAfter: after.hash }
  if (after.hash === stable.hash) return { verdict: 'uncontrolled', uncontrolled: { ...found.replay, orderOnly: evidence } }
  const [explored, rerun] = found.controlled
  return {
    verdict: 'harness-fault',
    harnessFault: {
      token: found.replay.token,
      resource: heldResourceOf([explored, rerun, after]),
      controlled: [explored.hash, rerun.hash],
      orderOnly: evidence,
      ...faultDifference(found.replay.token, after.json, stable.json),
    },
  }
}
