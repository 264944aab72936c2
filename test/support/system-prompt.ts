import { Context } from '@deepseek-ai/cordis'
import type { ToolSchema } from '../../src/llm/contract.ts'
import type { SystemPromptConfig } from '../../src/system-prompt/config.ts'
import { SystemPrompt } from '../../src/system-prompt/service.ts'

/** A minimal model-facing tool schema. */
export function tool(name: string, description = `${name} tool`): ToolSchema {
  return { name, description, parameters: { type: 'object', properties: {} } }
}

/** The names of a tool list, in order. */
export function names(tools: readonly { name: string }[]): string[] {
  return tools.map(entry => entry.name)
}

/** A fresh root context with SystemPrompt mounted and awaited, as dsh's own unit tests do. */
export async function mountSystemPrompt(config: SystemPromptConfig = {}): Promise<Context> {
  const ctx = new Context()
  await ctx.plugin(SystemPrompt, config)
  return ctx
}
