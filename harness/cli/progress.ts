import type { TextWriter } from './command.ts'
import { isCi, type Env } from './environment.ts'

/** A live progress line for the scenario being explored. */
export interface Progress {
  /** `explored` of `planned` interleavings of scenario `name` have run. */
  update(name: string, explored: number, planned: number): void
  /** Clears the line (before anything else is printed). */
  clear(): void
}

const CLEAR_LINE = '\r\x1b[2K'
/** Redraw at most this often, in milliseconds (the last interleaving of a scenario is always drawn). */
const REDRAW_EVERY_MS = 100

/** `42 s`, `3 min 5 s`: a rounded remaining time. */
function formatEta(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?'
  const whole = Math.ceil(seconds)
  return whole < 60 ? `${whole} s` : `${Math.floor(whole / 60)} min ${whole % 60} s`
}

/** The text of one progress line: `name  explored/planned  N/s  ETA …`. */
export function progressText(name: string, explored: number, planned: number, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? (explored * 1000) / elapsedMs : 0
  const eta = rate > 0 ? formatEta((planned - explored) / rate) : '?'
  return `${name}  ${explored}/${planned}  ${Math.round(rate)}/s  ETA ${eta}`
}

/**
 * A progress line on `stream`, rewritten in place, one scenario at a time.
 * Undefined (nothing drawn) when the stream is not a terminal or under CI.
 */
export function progressLine(stream: TextWriter, env: Env, now: () => number = Date.now): Progress | undefined {
  if (stream.isTTY !== true || isCi(env)) return undefined
  let current: { name: string, started: number, drawn: number } | undefined
  let shown = false
  return {
    update(name, explored, planned) {
      const time = now()
      if (current?.name !== name) current = { name, started: time, drawn: -Infinity }
      if (time - current.drawn < REDRAW_EVERY_MS && explored < planned) return
      current.drawn = time
      stream.write(`${CLEAR_LINE}${progressText(name, explored, planned, time - current.started)}`)
      shown = true
    },
    clear() {
      if (shown) stream.write(CLEAR_LINE)
      shown = false
      current = undefined
    },
  }
}
