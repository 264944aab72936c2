import { Context, Service } from '@deepseek-ai/cordis'
import type { Disposable } from '@deepseek-ai/cordis'
import type { ToolSchema } from '../llm/types.ts'
import { activeVariant } from '../variants/index.ts'
import { Config } from './config.ts'
import type { SystemPromptConfig } from './config.ts'
import { PromptLayers } from './layers.ts'
import type { ContextDefinition, PromptLayer, PromptText, SectionDefinition, VariableProvider } from './layers.ts'
import { scopeCarrier } from './scope.ts'
import { orderTools, validateToolOrder } from './tool-order.ts'
import type { AssembleContext, PromptAssembly, PromptContext, PromptSection, ToolProvider } from './types.ts'

declare module '@deepseek-ai/cordis' {
  interface Context {
    systemPrompt: SystemPrompt
  }
  interface Events {
    /** A prompt registration was added or removed (unfiltered). */
    'system-prompt/change'(): void
    /**
     * Waterfall over a freshly assembled prompt; the returned assembly is
     * authoritative. Listeners see the canonical tool list and run in
     * registration order; scoped listeners only see their scope's assemblies.
     */
    'system-prompt/assemble'(
      assembly: PromptAssembly,
      context: AssembleContext,
      next: () => Promise<PromptAssembly>,
    ): PromptAssembly | Promise<PromptAssembly>
  }
}

/** Name of the fixed identity section (order −100). */
export const HARNESS_IDENTITY_SECTION = 'harness:identity'
/** Name of the deployment persona section (order 0). */
export const PERSONA_SECTION = 'deployment:persona'
/** The identity section's text. */
export const HARNESS_IDENTITY_TEXT = 'You are an agent running inside the loadrace reference harness.'
/** Variable names as written between the braces of a `{{name}}` reference. */
export const VARIABLE_NAME = /^[a-z][a-z0-9_]*$/

/**
 * The prompt-composition service (ctx key `systemPrompt`): collects sections,
 * runtime contexts, variables and tool providers, and assembles them into the
 * model-facing prompt, owning the canonical tool order.
 *
 * Every registration method is a cordis effect of the CALLING context's fiber
 * (cordis hands a service method the caller's context as `this.ctx`), lands in
 * the caller's scope layer (see `scope.ts`), emits `system-prompt/change`, and
 * is rolled back if a change listener throws.
 */
export class SystemPrompt extends Service {
  static Config = Config

  /** The validated explicit tool order; `undefined` means lexicographic. */
  readonly toolOrder: readonly string[] | undefined
  private readonly home: Context
  private readonly layers: PromptLayers

  /** Fails (and so fails the plugin) on a malformed `toolOrder`. */
  constructor(ctx: Context, config: SystemPromptConfig = {}) {
    super(ctx, 'systemPrompt')
    this.home = ctx
    this.layers = new PromptLayers(() => ctx.emit('system-prompt/change'))
    this.toolOrder = validateToolOrder(config.toolOrder)
    if (config.includeHarnessIdentity ?? true) {
      this.section({ name: HARNESS_IDENTITY_SECTION, order: -100, text: HARNESS_IDENTITY_TEXT })
    }
    this.section({ name: PERSONA_SECTION, order: 0, text: config.persona ?? '' })
    if (!(config.includeRuntimeContext ?? true)) this.suppressRuntimeContext()
  }

  /** Registers a prompt section; the name is unique per layer and a scoped one shadows the global one. */
  section(section: SectionDefinition): Disposable<Promise<void>> {
    assertFiniteOrder('prompt section', section)
    const entry = { ...section }
    return this.layers.register(this.ctx, 'systemPrompt.section()', layer => layer.sections.insert(entry.name, entry))
  }

  /** Registers a runtime-context entry; same naming and shadowing rules as sections. */
  context(context: ContextDefinition): Disposable<Promise<void>> {
    assertFiniteOrder('prompt context', context)
    const entry = { ...context }
    return this.layers.register(this.ctx, 'systemPrompt.context()', layer => layer.contexts.insert(entry.name, entry))
  }

  /** Registers a prompt variable (`[a-z][a-z0-9_]*`), computed per assembly; a scoped one shadows the global one. */
  variable(name: string, provider: VariableProvider): Disposable<Promise<void>> {
    if (!VARIABLE_NAME.test(name)) throw new Error(`invalid prompt variable name "${name}" (must match ${String(VARIABLE_NAME)})`)
    return this.layers.register(this.ctx, 'systemPrompt.variable()', layer => layer.variables.insert(name, provider))
  }

  /** Registers a tool provider; global providers and those of the assembled scope's chain all contribute. */
  tools(provider: ToolProvider): Disposable<Promise<void>> {
    return this.layers.register(this.ctx, 'systemPrompt.tools()', layer => layer.toolProviders.append(provider))
  }

  /** Drops every runtime-context entry from the assemblies of the caller's scope (or all, when global). */
  suppressRuntimeContext(): Disposable<Promise<void>> {
    return this.layers.register(this.ctx, 'systemPrompt.suppressRuntimeContext()', layer => layer.suppressors.append(true))
  }

  /**
   * Assembles the prompt for `context.scope` (REFERENCE-SPEC §4.3): variables,
   * merged sections and contexts, a snapshot of the tool providers, detached
   * tool schemas, the canonical tool order (active variant), then the
   * `system-prompt/assemble` waterfall, whose result is authoritative except
   * that a complete section and runtime-context suppression are re-applied.
   * Tools are not touched after the waterfall.
   */
  async assemble(context: AssembleContext = {}): Promise<PromptAssembly> {
    const scope = context.scope
    const layers = [this.layers.global, ...this.layers.chain(scope)]
    const suppressed = layers.some(layer => layer.suppressors.size > 0)

    const variables: Record<string, string | undefined> = {}
    for (const layer of layers) {
      for (const [name, provide] of layer.variables.entries()) variables[name] = provide(context)
    }
    const sectionDefinitions = mergeByName(layers, layer => layer.sections.entries())
    const contextDefinitions = mergeByName(layers, layer => layer.contexts.entries())

    const providers = layers.flatMap(layer => layer.toolProviders.values())
    const collected: ToolSchema[] = []
    const knownNames = new Set<string>()
    for (const provider of providers) {
      const result = provider(context)
      const schemas = result.schemas.map(detachSchema)
      collected.push(...schemas)
      for (const name of result.knownNames ?? schemas.map(schema => schema.name)) knownNames.add(name)
    }

    const ordered = sectionDefinitions.sort(byOrder)
    const complete = ordered.filter(section => section.complete === true)
    if (complete.length > 1) {
      throw new Error(`multiple complete prompt sections are active: ${complete.map(s => JSON.stringify(s.name)).join(', ')}`)
    }
    let completeSection: PromptSection | undefined
    const sections = ordered.map((definition): PromptSection => {
      const section = { name: definition.name, order: definition.order, text: resolveText(definition.text, context) }
      if (definition.complete === true) completeSection = { ...section, complete: true }
      return section
    })
    const contexts = suppressed ? [] : contextDefinitions.sort(byOrder).map((definition): PromptContext => ({
      name: definition.name,
      order: definition.order,
      text: resolveText(definition.text, context),
    }))
    const tools = orderTools(collected, this.toolOrder, knownNames, activeVariant(this.home))

    const assembly: PromptAssembly = { sections, contexts, variables, tools }
    const carrier = scopeCarrier(scope, listenerCtx => this.admits(listenerCtx))
    const result = await this.home.waterfall(carrier, 'system-prompt/assemble', assembly, context, () => Promise.resolve(assembly))
    if (completeSection === undefined && !suppressed) return result
    return {
      ...result,
      sections: completeSection === undefined ? result.sections : [completeSection],
      contexts: suppressed ? [] : result.contexts,
    }
  }

  /** Listeners of another isolated `systemPrompt` do not see this service's assemblies. */
  private admits(listenerCtx: Context): boolean {
    return listenerCtx[Context.isolate].systemPrompt === this.home[Context.isolate].systemPrompt
  }
}

function assertFiniteOrder(kind: string, entry: { name: string, order: number }): void {
  if (!Number.isFinite(entry.order)) throw new TypeError(`${kind} "${entry.name}" order must be a finite number`)
}

/** Global entries first, then each chain layer, nearer layers replacing same-named entries in place. */
function mergeByName<V>(layers: readonly PromptLayer[], pick: (layer: PromptLayer) => Iterable<[string, V]>): V[] {
  const merged = new Map<string, V>()
  for (const layer of layers) {
    for (const [name, value] of pick(layer)) merged.set(name, value)
  }
  return [...merged.values()]
}

function byOrder(a: { order: number }, b: { order: number }): number {
  return a.order - b.order
}

function resolveText(text: PromptText, context: AssembleContext): string {
  return typeof text === 'function' ? text(context) : text
}

/** A fresh model-facing schema: exactly name, description, and a deep copy of the parameters. */
function detachSchema({ name, description, parameters }: ToolSchema): ToolSchema {
  return { name, description, parameters: structuredClone(parameters) }
}
