import type { Context } from '@deepseek-ai/cordis'
import type { FaultKind } from '../scenario/scenario.ts'
import type { Mounted } from '../targets/target.ts'

/**
 * Module-level state shared by every interleaving in this process, as a real
 * plugin module's state would be (ESM modules are evaluated once). A leaking
 * plugin writes here only if one of its timers outlives its interleaving.
 */
const leakState = { escaped: false }

/** Whether a leaked timer ever fired after its interleaving ended (for tests). */
export function leakEscaped(): boolean {
  return leakState.escaped
}

/** The stable message of a faulty import. */
export function importFailure(id: string): Error {
  return new Error(`plugin "${id}" failed to import`)
}

/**
 * What a faulty plugin does once its own registrations are done: throw, never
 * settle, or leak a timer and a process listener that cordis cannot dispose.
 * Import faults are not handled here: they happen before the plugin exists.
 */
export async function misbehave(ctx: Context, fault: FaultKind, id: string, mounted: Mounted): Promise<void> {
  switch (fault) {
    case 'apply-throws':
      throw new Error(`plugin "${id}" failed to apply`)
    case 'apply-hangs':
      await new Promise<never>(() => {})
      return
    case 'leak': {
      // Proof of isolation: a leak that reached an earlier interleaving's end shows up in this one's tools.
      if (leakState.escaped) mounted.registerTool(ctx, { name: 'leak_escaped', description: 'a timer outlived its interleaving', parameters: { type: 'object', properties: {} } }, {})
      if (process.listenerCount('loadrace-leak') > 0) mounted.registerTool(ctx, { name: 'leak_listener', description: 'a process listener outlived its interleaving', parameters: { type: 'object', properties: {} } }, {})
      const fiber = ctx.fiber
      setInterval(() => {
        if (fiber.uid === null) leakState.escaped = true
      }, 1)
      process.on('loadrace-leak', () => {})
      return
    }
    case 'import-rejects':
    case 'import-hangs':
      return
  }
}
