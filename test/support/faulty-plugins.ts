/** Misbehaving real plugin modules and the scenarios that race them, for the fault specs. */

/**
 * A plugin whose apply waits for a reply that never comes: it connects to a
 * local server that never answers. A connected socket can always wake work,
 * so the harness cannot tell the wait is hopeless; only the per-interleaving
 * timeout ends it. (An object with apply: cordis constructs a plain function
 * export, so a promise it returns would not be awaited.)
 */
export const BUSY_MODULE = `import net from 'node:net'

export default {
  name: 'busy',
  apply(ctx) {
    return new Promise((resolve) => {
      const server = net.createServer(() => {}).listen(0, '127.0.0.1', () => {
        const socket = net.connect(server.address().port, '127.0.0.1')
        socket.on('data', resolve)
        ctx.effect(() => () => { socket.destroy(); server.close() })
      })
    })
  },
}
`

/**
 * A plugin whose apply never settles while an interval keeps firing and does
 * nothing else: held timers only fire when the scheduler releases them, time
 * advances for the interval while the boot waits, and the spin is stuck.
 */
export const SPIN_MODULE = `export default {
  name: 'spin',
  apply() {
    return new Promise(() => { setInterval(() => {}, 10) })
  },
}
`

/** Ways the leak probe schedules its callback. */
export const LEAK_ROUTES = [
  'global-timeout', 'global-interval', 'global-immediate', 'timers-timeout', 'timers-interval', 'timers-promises', 'captured-timeout',
] as const
export type LeakRoute = typeof LEAK_ROUTES[number]

/**
 * A plugin that leaks a repeating callback through the route its config names
 * and contributes one tool, named "leak_escaped" once any of its callbacks ran
 * after its own interleaving ended (read when the header is assembled, so a
 * leak changes a later interleaving's bytes). Its `leakedAfterEnd()` export
 * tells the spec directly.
 */
export const LEAK_PROBE_MODULE = `import * as timers from 'node:timers'
import * as timersPromises from 'node:timers/promises'

// Captured when the module is first imported, before any interleaving runs.
const capturedTimeout = setTimeout

let escaped = false

export function leakedAfterEnd() {
  return escaped
}

const routes = {
  'global-timeout': (tick) => { for (const ms of [1, 30, 200]) setTimeout(tick, ms) },
  'global-interval': (tick) => { setInterval(tick, 1) },
  'global-immediate': (tick) => { const again = () => { tick(); setImmediate(again) }; setImmediate(again) },
  'timers-timeout': (tick) => { for (const ms of [1, 30, 200]) timers.setTimeout(tick, ms) },
  'timers-interval': (tick) => { timers.setInterval(tick, 1) },
  'timers-promises': (tick) => { void (async () => { for await (const _ of timersPromises.setInterval(1)) tick() })() },
  'captured-timeout': (tick) => { const again = () => { tick(); capturedTimeout(again, 1) }; capturedTimeout(again, 1) },
}

export default {
  name: 'leak-probe',
  inject: ['systemPrompt'],
  apply(ctx, config) {
    const fiber = ctx.fiber
    ctx.systemPrompt.tools(() => ({
      schemas: [{ name: escaped ? 'leak_escaped' : 'probe', description: 'probe', parameters: { type: 'object', properties: {} } }],
    }))
    routes[config.route](() => {
      if (fiber.uid === null) escaped = true
    })
  },
}
`

/** A scenario of two tool plugins plus the `extra` entry lines, with the given `expect:` body and extra top-level lines. */
export function withTwoTools(name: string, extra: string, expect: string, top = ''): string {
  return `name: ${name}\napp: none\n${top}plugins:\n  - id: tool-alpha\n    tools: [alpha]\n  - id: tool-beta\n    tools: [beta]\n${extra}expect:\n${expect}`
}

/** The busy module (at `module`, relative to the scenario file) racing two tool plugins; `top` adds lines such as `timeout: 300`. */
export function busyScenario(name: string, module: string, top = ''): string {
  return withTwoTools(name, `  - id: busy\n    module: ${module}\n`, '  outcome: stuck\n', top)
}

/** The leak probe on `route`, racing two tool plugins: deterministic, and no interleaving may see another's leak. */
export function leakScenario(route: LeakRoute): string {
  return withTwoTools(
    `leak-${route}`,
    `  - id: probe\n    module: ../plugins/leak-probe.mjs\n    config: { route: ${route} }\n`,
    '  outcome: completed\n  tools: [alpha, beta, probe]\n',
  )
}
