import { Context } from '@deepseek-ai/cordis'
import type { ToolSchema } from '../llm/contract.ts'
import { variantSeam } from '../runtime/variant-service.ts'
import type { PromptLayer, PromptLayers, PromptText } from './layers.ts'
import { scopeCarrier } from './scope.ts'
import { CANONICAL_NAME_ORDERING, orderTools } from './tool-order.ts'
import type { AssembleContext, PromptAssembly, PromptContext, PromptSection } from './prompt.ts'

/**
 * What one assembly reads from its SystemPrompt, held as plain references.
 *
 * A service method called through a cordis context runs on the service's
 * traceable proxy, where every field read and method call is trapped (and a
 * method call builds a shadow context). The assembly runs once per model step,
 * so the service hands it this plain record instead of `this`.
 */
export interface AssemblySource {
  readonly layers: PromptLayers
  /** The validated explicit tool order; `undefined` means lexicographic. */
  readonly toolOrder: readonly string[] | undefined
  /** The service's own context: the variant is read and the waterfall is run through it. */
  readonly home: Context
}

/**
 * Assembles the prompt for `context.scope` (REFERENCE-SPEC §4.3): variables,
 * merged sections and contexts, a snapshot of the tool providers, detached
 * tool schemas, the canonical tool order (active variant), then the
 * `system-prompt/assemble` waterfall, whose result is authoritative except
 * that a complete section and runtime-context suppression are re-applied.
 * Tools are not touched after the waterfall.
 */
export async function assemblePrompt(source: AssemblySource, context: AssembleContext): Promise<PromptAssembly> {
  const { home } = source
  const scope = context.scope
  const layers = [source.layers.global, ...source.layers.chain(scope)]
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
    const first = collected.length
    for (const schema of result.schemas) collected.push(detachSchema(schema))
    const known = result.knownNames
    if (known == null) {
      for (let index = first; index < collected.length; index++) knownNames.add(collected[index]!.name)
    } else {
      for (const name of known) knownNames.add(name)
    }
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
  const tools = orderTools(collected, source.toolOrder, knownNames, variantSeam(home, CANONICAL_NAME_ORDERING))

  const assembly: PromptAssembly = { sections, contexts, variables, tools }
  // Listeners of another isolated `systemPrompt` do not see this service's assemblies.
  const own = home[Context.isolate].systemPrompt
  const carrier = scopeCarrier(scope, listenerCtx => listenerCtx[Context.isolate].systemPrompt === own)
  // `home.events.waterfall` is what the `home.waterfall` mixin forwards to; calling it
  // directly skips the mixin lookup (which builds an Error, with its stack, per call).
  const result = await home.events.waterfall(carrier, 'system-prompt/assemble', assembly, context, () => Promise.resolve(assembly))
  if (completeSection === undefined && !suppressed) return result
  return {
    ...result,
    sections: completeSection === undefined ? result.sections : [completeSection],
    contexts: suppressed ? [] : result.contexts,
  }
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
