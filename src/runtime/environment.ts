import { randomUUID } from 'node:crypto'
import type { Context } from '@deepseek-ai/cordis'

/**
 * The two nondeterministic inputs of the reference system: the wall clock and
 * fresh identifiers. Reference services read them from the optional cordis
 * service `environment`, so a run can be replayed byte for byte.
 */
export interface Environment {
  /** Milliseconds used for session event `time`. */
  now(): number
  /** A fresh identifier (message ids, omitted session and agent ids). */
  newId(): string
}

declare module '@deepseek-ai/cordis' {
  interface Context {
    /** Optional clock/id source; absent means {@link realEnvironment}. */
    environment: Environment
  }
}

/** The production environment: `Date.now` and `crypto.randomUUID`. */
export const realEnvironment: Environment = Object.freeze({
  now: () => Date.now(),
  newId: () => randomUUID(),
})

/** A fresh replayable environment: `now()` yields 0, 1, 2, … and `newId()` yields `id-1`, `id-2`, … per call. */
export function createDeterministicEnvironment(): Environment {
  let tick = 0
  let serial = 0
  return {
    now: () => tick++,
    newId: () => `id-${++serial}`,
  }
}

/** The environment visible from `ctx`: the provided `environment` service, else {@link realEnvironment}. */
export function environmentOf(ctx: Context): Environment {
  return ctx.get('environment') ?? realEnvironment
}
