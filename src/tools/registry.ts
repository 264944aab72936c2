import { Service } from '@deepseek-ai/cordis'
import type { Context, Disposable } from '@deepseek-ai/cordis'
import type { ToolSchema } from '../llm/contract.ts'
import type {} from '../system-prompt/service.ts'
import type { ToolProviderResult } from '../system-prompt/prompt.ts'
import { variantSeam } from '../runtime/variant-service.ts'
import { fiberDepth, fiberOwner } from './provenance.ts'
import { CANONICAL_REGISTRY_ORDERING } from './registry-order.ts'
import type { ToolDefinition, ToolRecord, ToolRegistrationOptions } from './tool.ts'

declare module '@deepseek-ai/cordis' {
  interface Context {
    tools: ToolRegistry
  }
  interface Events {
    /** A tool was registered or unregistered. */
    'tools/change'(): void
  }
}

/**
 * The tool registry (ctx key `tools`): a membership store of tool definitions
 * in registration (insertion) order — the order the RFC calls a race.
 *
 * It contributes ONE provider to the system prompt (native mode): the schemas
 * of every registered tool, in registration order unless the active variant
 * reorders the records, and every registered name as known names. Ordering
 * for the model is the assembly's job, not the registry's. Registrations are
 * global: a scope tag on the registering context is ignored.
 */
export class ToolRegistry extends Service {
  static inject = ['systemPrompt']

  private readonly entries = new Map<string, ToolRecord>()
  private nextSeq = 0

  constructor(ctx: Context) {
    super(ctx, 'tools')
    ctx.systemPrompt.tools(() => this.contribution(ctx))
  }

  /**
   * Registers a tool as an effect of the caller's fiber (unloading the caller
   * removes it). Names are unique; the reserved rest-entry name is accepted
   * here and rejected by the assembly. Returns the disposer.
   */
  register(definition: ToolDefinition, options: ToolRegistrationOptions = {}): Disposable<Promise<void>> {
    const ctx = this.ctx
    return ctx.effect(() => {
      const existing = this.entries.get(definition.name)
      if (existing !== undefined) {
        throw new Error(`tool "${definition.name}" is already registered (by "${existing.owner}")`)
      }
      const record: ToolRecord = {
        definition,
        owner: fiberOwner(ctx.fiber),
        seq: this.nextSeq++,
        ...options.weight === undefined ? {} : { weight: options.weight },
        depth: fiberDepth(ctx.fiber),
      }
      this.entries.set(definition.name, record)
      ctx.emit('tools/change')
      return () => {
        if (this.entries.get(definition.name) !== record) return
        this.entries.delete(definition.name)
        ctx.emit('tools/change')
      }
    }, 'tools.register()')
  }

  /** The registered definition called `name`, if any. */
  get(name: string): ToolDefinition | undefined {
    return this.entries.get(name)?.definition
  }

  /** Every registration, in registration order. */
  records(): readonly ToolRecord[] {
    return [...this.entries.values()]
  }

  private contribution(home: Context): ToolProviderResult {
    const records = this.records()
    const ordered = variantSeam(home, CANONICAL_REGISTRY_ORDERING).registryOrder?.(records) ?? records
    return {
      schemas: ordered.map(({ definition: { name, description, parameters } }): ToolSchema => ({ name, description, parameters })),
      knownNames: records.map(record => record.definition.name),
    }
  }
}
