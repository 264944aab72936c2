import type { TextWriter } from './command.ts'
import type { Env } from './environment.ts'

/** Milliseconds between two heartbeat lines unless `LOADRACE_HEARTBEAT_MS` says otherwise. */
export const DEFAULT_HEARTBEAT_MS = 10_000

/** What is running now, as the heartbeat reports it. */
interface Current {
  label: string
  explored: number
  planned: number
  /** 1-based position of this unit among those of the run. */
  ordinal: number
}

/** A heartbeat for output that is not a terminal: a line at a fixed interval saying what runs and how far it is. */
export interface Heartbeat {
  /** `explored` of `planned` interleavings of the unit `label` have run (`planned` 0: it is starting). */
  update(label: string, explored: number, planned: number): void
  /** Stops the beat. */
  stop(): void
}

/** The interval in milliseconds from `LOADRACE_HEARTBEAT_MS` (0 turns it off), else the default. */
export function heartbeatInterval(env: Env): number {
  const text = env.LOADRACE_HEARTBEAT_MS?.trim()
  if (text === undefined || text === '' || !/^[0-9]+$/.test(text)) return DEFAULT_HEARTBEAT_MS
  return Number(text)
}

/** `42 s`, `3 min 5 s`. */
function elapsed(ms: number): string {
  const seconds = Math.round(ms / 1000)
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`
}

/** The text of one heartbeat line. */
export function heartbeatText(current: Current | undefined, total: number | undefined, ms: number): string {
  if (current === undefined) return `loadrace: ${elapsed(ms)}: loading\n`
  const of = total === undefined ? '' : ` of ${total}`
  const done = current.planned === 0 ? 'starting' : `${current.explored}/${current.planned} interleavings`
  return `loadrace: ${elapsed(ms)}: ${current.label} (${current.ordinal}${of}): ${done}\n`
}

/**
 * Writes a heartbeat line to `stream` every `intervalMs` until stopped; the
 * unit count (`total`, e.g. the scenarios of a sweep) is read when each line
 * is written. The timer never keeps the process alive.
 */
export function startHeartbeat(stream: TextWriter, intervalMs: number, total: () => number | undefined, now: () => number = Date.now): Heartbeat {
  const started = now()
  let current: Current | undefined
  const timer = setInterval(() => stream.write(heartbeatText(current, total(), now() - started)), intervalMs)
  timer.unref()
  return {
    update(label, explored, planned) {
      const ordinal = current === undefined ? 1 : current.label === label ? current.ordinal : current.ordinal + 1
      current = { label, explored, planned, ordinal }
    },
    stop: () => clearInterval(timer),
  }
}
