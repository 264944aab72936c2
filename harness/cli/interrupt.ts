import { EXIT } from './usage-error.ts'

/** Watches SIGINT and SIGTERM while a sweep runs. */
export interface Interruption {
  /** Aborts at the first signal. */
  signal: AbortSignal
  /** 130 after SIGINT, 143 after SIGTERM; undefined while no signal came. */
  exitCode(): number | undefined
  /** Stops watching. */
  dispose(): void
}

const CODES = { SIGINT: EXIT.interrupted, SIGTERM: EXIT.terminated } as const

/**
 * The first SIGINT or SIGTERM aborts the returned signal (the sweep stops and
 * writes what it has) and calls `onFirst`; a second one exits the process at once.
 */
export function watchInterruptions(onFirst: (name: keyof typeof CODES) => void = () => {}): Interruption {
  const controller = new AbortController()
  let code: number | undefined
  const handlers = (Object.keys(CODES) as (keyof typeof CODES)[]).map((name) => {
    const handler = () => {
      if (code !== undefined) process.exit(CODES[name])
      code = CODES[name]
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
