import type { Context } from '@deepseek-ai/cordis'
import { ToolRegistry } from '../../src/tools/registry.ts'
import type { Mounted } from '../../harness/targets/target.ts'
import { mountSystemPrompt } from './system-prompt.ts'

/**
 * The reference's tool registry on a fresh root context, and the part of a
 * target's `Mounted` a synthetic plugin uses, over that registry: what a
 * plugin registers lands in the real `tools` service.
 */
export async function registryRoot(): Promise<{ root: Context, mounted: Mounted }> {
  const root = await mountSystemPrompt()
  await root.plugin(ToolRegistry)
  const mounted: Mounted = {
    entries: [],
    toolService: 'tools',
    registerTool: (ctx, tool, { weight }) => { ctx.tools.register({ ...tool, execute: () => 'ok' }, weight === undefined ? {} : { weight }) },
    hasTool: (ctx, name) => ctx.tools.get(name) !== undefined,
    bootProblem: () => undefined,
    runTurns: () => Promise.reject(new Error('no turns in a plugin spec')),
  }
  return { root, mounted }
}

/** The names of the registered tools, in registration order. */
export function registered(root: Context): string[] {
  return root.tools.records().map(record => record.definition.name)
}
