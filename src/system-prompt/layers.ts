import type { Context, Disposable } from '@deepseek-ai/cordis'
import type { AssembleContext, ToolProvider } from './prompt.ts'
import { scopeChain, scopeOf } from './scope.ts'

/** A section or context text: fixed, or computed per assembly. */
export type PromptText = string | ((context: AssembleContext) => string)

/** A prompt section as registered. At most one active section may be `complete` (it then replaces all others). */
export interface SectionDefinition {
  name: string
  order: number
  text: PromptText
  complete?: boolean
}

/** A runtime-context entry as registered. */
export interface ContextDefinition {
  name: string
  order: number
  text: PromptText
}

/** Computes one prompt variable per assembly; `undefined` means "no value" (rendering a reference to it fails). */
export type VariableProvider = (context: AssembleContext) => string | undefined

/** Insertion-ordered entries that reject a second entry under the same name. */
class NamedTable<V> {
  private readonly map = new Map<string, V>()

  constructor(private readonly kind: string, private readonly scoped: boolean) {}

  insert(name: string, value: V): () => void {
    if (this.map.has(name)) {
      const where = this.scoped
        ? 'in this scope'
        : '(to shadow it for one agent, register through that agent\'s scoped context)'
      throw new Error(`${this.kind} "${name}" is already registered ${where}`)
    }
    this.map.set(name, value)
    return () => {
      if (this.map.get(name) === value) this.map.delete(name)
    }
  }

  /** Live iteration: entries added while iterating are visited too. */
  entries(): IterableIterator<[string, V]> {
    return this.map.entries()
  }

  get size(): number {
    return this.map.size
  }
}

/** Insertion-ordered entries without names; equal values stay separate registrations. */
class AnonymousTable<V> {
  private readonly map = new Map<symbol, V>()

  append(value: V): () => void {
    const key = Symbol('registration')
    this.map.set(key, value)
    return () => {
      this.map.delete(key)
    }
  }

  values(): V[] {
    return [...this.map.values()]
  }

  get size(): number {
    return this.map.size
  }
}

/** Every prompt registration of one layer: the global one, or one scope's. */
export class PromptLayer {
  readonly sections: NamedTable<SectionDefinition>
  readonly contexts: NamedTable<ContextDefinition>
  readonly variables: NamedTable<VariableProvider>
  readonly toolProviders = new AnonymousTable<ToolProvider>()
  readonly suppressors = new AnonymousTable<true>()

  constructor(scoped: boolean) {
    this.sections = new NamedTable('prompt section', scoped)
    this.contexts = new NamedTable('prompt context', scoped)
    this.variables = new NamedTable('prompt variable', scoped)
  }

  isEmpty(): boolean {
    return this.sections.size + this.contexts.size + this.variables.size
      + this.toolProviders.size + this.suppressors.size === 0
  }
}

/**
 * The global layer plus one layer per scope that currently has registrations.
 * Registrations are cordis effects owned by the registering context's fiber.
 */
export class PromptLayers {
  readonly global = new PromptLayer(false)
  private readonly scoped = new Map<object, PromptLayer>()

  /** @param onChange - called after every registration and disposal; a throw during registration rolls it back. */
  constructor(private readonly onChange: () => void) {}

  /** The existing layers of a scope and its ancestors, farthest ancestor first, the scope itself last. */
  chain(scope: object | undefined): PromptLayer[] {
    return scopeChain(scope).reverse().flatMap(key => this.scoped.get(key) ?? [])
  }

  /**
   * Applies one mutation to the layer of `ctx`'s scope as an effect of `ctx`'s
   * fiber. A change listener that throws rolls the mutation back (listeners
   * notified before it are not told about the rollback: the event carries no
   * payload, and a spurious "changed" only causes a redundant re-read).
   */
  register(ctx: Context, label: string, mutate: (layer: PromptLayer) => () => void): Disposable<Promise<void>> {
    const scope = scopeOf(ctx)
    return ctx.effect(() => {
      const layer = this.acquire(scope)
      let undo: () => void
      try {
        undo = mutate(layer)
      } catch (error) {
        this.release(scope, layer)
        throw error
      }
      try {
        this.onChange()
      } catch (error) {
        undo()
        this.release(scope, layer)
        throw error
      }
      return () => {
        undo()
        this.release(scope, layer)
        this.onChange()
      }
    }, label)
  }

  private acquire(scope: object | undefined): PromptLayer {
    if (scope === undefined) return this.global
    let layer = this.scoped.get(scope)
    if (layer === undefined) {
      layer = new PromptLayer(true)
      this.scoped.set(scope, layer)
    }
    return layer
  }

  /** Forgets an emptied scoped layer, so a disposed scope leaves nothing behind. */
  private release(scope: object | undefined, layer: PromptLayer): void {
    if (scope !== undefined && layer.isEmpty() && this.scoped.get(scope) === layer) this.scoped.delete(scope)
  }
}
