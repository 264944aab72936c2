import { Service } from '@deepseek-ai/cordis'
import type { Context, Disposable } from '@deepseek-ai/cordis'
import { assemblePrompt } from './assembly.ts'
import type { AssemblySource } from './assembly.ts'
import { Config } from './config.ts'
import type { SystemPromptConfig } from './config.ts'
import { PromptLayers } from './layers.ts'
import type { ContextDefinition, SectionDefinition, VariableProvider } from './layers.ts'
import { validateToolOrder } from './tool-order.ts'
import { HARNESS_IDENTITY_TEXT } from './identity.ts'
import type { AssembleContext, PromptAssembly, ToolProvider } from './prompt.ts'

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
export { HARNESS_IDENTITY_TEXT }
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
  private readonly layers: PromptLayers
  /** What `assemble()` reads, as plain references (see `AssemblySource`). */
  private readonly source: AssemblySource

  /** Fails (and so fails the plugin) on a malformed `toolOrder`. */
  constructor(ctx: Context, config: SystemPromptConfig = {}) {
    super(ctx, 'systemPrompt')
    this.layers = new PromptLayers(() => ctx.emit('system-prompt/change'))
    this.toolOrder = validateToolOrder(config.toolOrder)
    this.source = { layers: this.layers, toolOrder: this.toolOrder, home: ctx }
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
   * Assembles the prompt for `context.scope` (REFERENCE-SPEC §4.3; the
   * algorithm lives in `assembly.ts`): variables, merged sections and
   * contexts, detached tool schemas in the canonical tool order, then the
   * `system-prompt/assemble` waterfall, whose result is authoritative except
   * that a complete section and runtime-context suppression are re-applied.
   */
  assemble(context: AssembleContext = {}): Promise<PromptAssembly> {
    return assemblePrompt(this.source, context)
  }
}

function assertFiniteOrder(kind: string, entry: { name: string, order: number }): void {
  if (!Number.isFinite(entry.order)) throw new TypeError(`${kind} "${entry.name}" order must be a finite number`)
}
