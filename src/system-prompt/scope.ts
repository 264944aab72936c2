import { Context } from '@deepseek-ai/cordis'

/**
 * Prompt scopes: an object (usually an agent) under which registrations
 * shadow or add to the global ones.
 *
 * A scoped context is an ordinary child context tagged with the scope object.
 * Registrations made through it land in that scope's layer (and are still
 * effects of the fiber owning the context); `assemble({ scope })` layers them
 * over the global registrations; `system-prompt/assemble` listeners added
 * through it only see that scope's assemblies. A scope may name a parent
 * scope: its assemblies then also see the parent's layer, and listeners of the
 * parent see its assemblies.
 */

const kScope = Symbol('loadrace.prompt-scope')
const parents = new WeakMap<object, object>()

/** Options of {@link scopedContext}. */
export interface ScopeOptions {
  /** The enclosing scope; set once per scope object. */
  parent?: object
}

/**
 * Returns a child of `ctx` tagged with `scope`. Registering through it adds to
 * the scope's layer; the registrations are owned by `ctx`'s fiber.
 */
export function scopedContext<C extends Context>(ctx: C, scope: object, options: ScopeOptions = {}): C {
  if (options.parent !== undefined) bindParent(scope, options.parent)
  return ctx.extend({ [kScope]: scope })
}

function bindParent(scope: object, parent: object): void {
  const existing = parents.get(scope)
  if (existing === parent) return
  if (existing !== undefined) throw new Error('prompt scope already has a different parent scope')
  if (scopeChain(parent).includes(scope)) throw new Error('prompt scope parent would form a cycle')
  parents.set(scope, parent)
}

/** The scope a context is tagged with, if any. */
export function scopeOf(ctx: Context): object | undefined {
  const tag: unknown = Reflect.get(ctx, kScope)
  return typeof tag === 'object' && tag !== null ? tag : undefined
}

/** The scope and its ancestors, nearest first; empty for no scope. */
export function scopeChain(scope: object | undefined): object[] {
  const chain: object[] = []
  for (let cursor = scope; cursor !== undefined; cursor = parents.get(cursor)) chain.push(cursor)
  return chain
}

/**
 * A dispatch receiver for events about `scope`: untagged listeners receive
 * them, tagged listeners only when their scope is `scope` or one of its
 * ancestors. `admits` adds the caller's own filter (e.g. service isolation).
 */
export function scopeCarrier(scope: object | undefined, admits: (listenerCtx: Context) => boolean = () => true): object {
  const chain = scopeChain(scope)
  return {
    [Context.filter](listenerCtx: Context): boolean {
      if (!admits(listenerCtx)) return false
      const tag = scopeOf(listenerCtx)
      return tag === undefined || chain.includes(tag)
    },
  }
}
