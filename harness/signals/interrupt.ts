/**
 * SIGINT and SIGTERM, turned into an abort: the first signal aborts the
 * returned `AbortSignal` (the work stops and says what it did so far) and
 * calls `onFirst`; a second one exits the process at once. Every command
 * that can be interrupted (a sweep, `watch`, `loadrace test`) watches them
 * here and nowhere else.
 */

/** The exit code of each signal: 128 + its number. */
export const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const

/** The signals that interrupt a command. */
export type InterruptSignal = keyof typeof SIGNAL_EXIT_CODES

/** Watches SIGINT and SIGTERM while a command runs. */
export interface Interruption {
  /** Aborts at the first signal. */
  signal: AbortSignal
  /** 130 after SIGINT, 143 after SIGTERM; undefined while no signal came. */
  exitCode(): number | undefined
  /** Stops watching. */
  dispose(): void
}

/** Starts watching: see the file's comment. */
export function watchInterruptions(onFirst: (name: InterruptSignal) => void = () => {}): Interruption {
  const controller = new AbortController()
  let code: number | undefined
  const handlers = (Object.keys(SIGNAL_EXIT_CODES) as InterruptSignal[]).map((name) => {
    const handler = () => {
      if (code !== undefined) process.exit(SIGNAL_EXIT_CODES[name])
      code = SIGNAL_EXIT_CODES[name]
      onFirst(name)
      controller.abort()
    }
    process.on(name, handler)
    return { name, handler }
  })
  return {
    signal: controller.signal,
    exitCode: () => code,
    dispose() {
      for (const { name, handler } of handlers) process.off(name, handler)
    },
  }
}
