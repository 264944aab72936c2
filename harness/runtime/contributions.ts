/**
 * Who contributed what the model sees: each tool by its provenance and each
 * system-prompt section by the plugin that registered it, as loader entries.
 * Not part of the compared bytes; a divergence report uses it to name the
 * plugins whose contributions moved, beside the swapped pair.
 *
 * Both targets register through a service method whose traced `this.ctx` is
 * the caller's context (dsh's `ScopedLayers.effect(this.ctx, …)` makes the
 * registration an effect of the caller's fiber, which is all dsh records), so
 * the probe wraps `systemPrompt.section`, `tools.register` and
 * `systemPrompt.assemble` on the live service instances, reads the caller's
 * fiber at the call, and maps the fiber to the loader entry it runs under:
 * the fiber itself, or the nearest ancestor fiber, that the loader applied
 * for an entry. Calls pass through unchanged.
 */
import type { Context, Fiber } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/cordis-plugin-loader'
import { entryLabel } from '../scenario/entry-labels.js'
import { listenOnRoot } from '../preload/applies.js'

/** The owner of something the base composition registered itself. */
export const BASE_OWNER = '(base)'

/** One contribution the model sees, in the order it sees it. */
export interface Contribution {
  kind: 'tool' | 'section'
  name: string
  /** The label of the loader entry whose plugin registered it, or {@link BASE_OWNER}. */
  owner: string
  /** The name of the plugin that registered it, when that is a plugin the entry's own plugin mounted (an app entry's spine). */
  plugin?: string
  /** A section's `order` (ties keep registration order). */
  order?: number
}

/** What the last prompt assembly held, attributed. */
export interface Contributions {
  tools: Contribution[]
  sections: Contribution[]
}

/** The loader entry a fiber runs under, by label. */
export function ownerOf(fiber: Fiber | undefined): string {
  return attributionOf(fiber).owner
}

/** The loader entry a fiber runs under, and the fiber's own plugin name when it is a plugin that entry mounted. */
function attributionOf(fiber: Fiber | undefined): { owner: string, plugin?: string } {
  for (let cursor = fiber; cursor !== undefined && cursor.runtime !== null; cursor = cursor.parent.fiber) {
    if (cursor.entry !== undefined) {
      const owner = entryLabel(cursor.entry.id)
      // A plugin the entry's own plugin mounted runs in a fiber of its own (an app entry's spine).
      const own = cursor.entry.fiber
      const plugin = fiber === own || fiber?.runtime === own?.runtime ? undefined : fiber?.runtime?.name
      return typeof plugin === 'string' && plugin !== '' ? { owner, plugin } : { owner }
    }
    if (cursor.parent.fiber === cursor) break
  }
  return { owner: BASE_OWNER }
}

type Method = (this: { ctx?: Context }, ...args: unknown[]) => unknown

function named(value: unknown): { name?: unknown, order?: unknown } {
  return typeof value === 'object' && value !== null ? value as { name?: unknown, order?: unknown } : {}
}

/** Replaces `service[method]` (an own property shadowing the class method) with a pass-through that reports each call. */
function observe(service: object, method: string, seen: (caller: Context | undefined, args: unknown[], result: unknown) => void): void {
  const original = Reflect.get(service, method) as Method | undefined
  if (typeof original !== 'function') return
  Reflect.set(service, method, function (this: { ctx?: Context }, ...args: unknown[]) {
    const result = original.apply(this, args)
    seen(this?.ctx, args, result)
    return result
  })
}

/** cordis's key for the object behind one of its traceable proxies (`symbols.original`). */
const ORIGINAL = Symbol.for('cordis.original')

/** Records registrations on `root`'s system prompt and tool service from the moment they appear; call before plugins load. */
export function watchContributions(root: Context): { read(): Contributions } {
  const owners = { tool: new Map<string, { owner: string, plugin?: string }>(), section: new Map<string, { owner: string, plugin?: string, order?: number }>() }
  let last: { sections: unknown[], tools: unknown[] } | undefined
  const installers: Record<string, (service: object) => void> = {
    systemPrompt(service) {
      observe(service, 'section', (caller, [section]) => {
        const { name, order } = named(section)
        if (typeof name === 'string') owners.section.set(name, { ...attributionOf(caller?.fiber), ...typeof order === 'number' ? { order } : {} })
      })
      observe(service, 'assemble', (_caller, _args, result) => {
        void Promise.resolve(result).then((assembly) => {
          const { sections, tools } = assembly as { sections?: unknown, tools?: unknown }
          if (Array.isArray(sections) && Array.isArray(tools)) last = { sections, tools }
        }, () => {})
      })
    },
    tools(service) {
      observe(service, 'register', (caller, [definition]) => {
        const { name } = named(definition)
        if (typeof name === 'string') owners.tool.set(name, attributionOf(caller?.fiber))
      })
    },
  }
  const probed = new WeakSet<object>()
  // Each service instance is wrapped once, when root first sees it: now, if it is already there, else the moment
  // cordis announces it (`internal/service`, as its provider becomes active, before any plugin that injects it applies:
  // cordis applies those a microtask later). No fiber of loadrace's own joins the system's. The lookup is the reflect
  // service behind the `get` mixin, without the Error cordis builds for every mixin read through a context.
  const probe = (name: string) => {
    const service = root.reflect.get(name) as object | undefined
    if (service === undefined || service === null) return
    const instance = (service as Record<symbol, object | undefined>)[ORIGINAL] ?? service
    if (probed.has(instance)) return
    probed.add(instance)
    installers[name]!(service)
  }
  for (const name of Object.keys(installers)) probe(name)
  // Not global: only services root itself sees, as `root.reflect.get` finds them.
  listenOnRoot(root as unknown as Parameters<typeof listenOnRoot>[0], 'internal/service', (name) => {
    if (typeof name === 'string' && Object.hasOwn(installers, name)) probe(name)
  }, false)
  return {
    read() {
      const names = (list: unknown[]) => list.flatMap(item => typeof named(item).name === 'string' ? [named(item).name as string] : [])
      return {
        tools: names(last?.tools ?? []).map(name => ({ kind: 'tool', name, ...owners.tool.get(name) ?? { owner: BASE_OWNER } })),
        sections: names(last?.sections ?? []).map((name) => {
          const { order, ...known } = owners.section.get(name) ?? { owner: BASE_OWNER }
          return { kind: 'section', name, ...known, ...order === undefined ? {} : { order } }
        }),
      }
    },
  }
}
