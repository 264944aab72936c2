/**
 * Tools of synthetic plugins, registered through the real dsh `ToolRuntime`.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { TargetTool } from '../target.ts'
import { dshService, type ToolsService } from './services.ts'

/** Service key tool plugins inject. */
export const TOOL_SERVICE = 'tools'

/**
 * A `ToolRuntime` definition for `tool`. The model-facing fields are passed
 * exactly as given (parameters by reference, key order kept); the registry
 * also requires an output contract and a body, which only a tool call would
 * reach: the body returns a fixed string, rendered as one text block.
 */
export function toolDefinition(tool: TargetTool): object {
  return {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    output: {
      schema: { type: 'string' },
      render: (_args: unknown, value: unknown) => [{ type: 'text', text: String(value) }],
    },
    execute: async (): Promise<string> => `${tool.name} done`,
  }
}

function toolsOf(ctx: Context): ToolsService {
  const tools = dshService(ctx, 'tools')
  if (!tools) throw new Error(`service "${TOOL_SERVICE}" is not available`)
  return tools
}

/** Registers `tool` from `ctx` (a plugin's own context), so it is unregistered when that plugin is disposed. */
export function registerTool(ctx: Context, tool: TargetTool): void {
  toolsOf(ctx).register(toolDefinition(tool))
}

/** Whether a tool named `name` is registered (in the global view) right now; false while `tools` is unavailable. */
export function hasTool(ctx: Context, name: string): boolean {
  const tools = dshService(ctx, 'tools')
  return tools !== undefined && tools.get(name) !== undefined
}
