import type { Context } from '@deepseek-ai/cordis'
import type { ListenerPluginSpec } from '../scenario/types.ts'
import type { PromptAssembly } from '../../src/system-prompt/types.ts'

function schema(name: string) {
  return { name, description: `${name} tool`, parameters: { type: 'object', properties: {} } }
}

/** Applies a listener spec to an assembly's tool list, in a fixed order: remove, prepend, append, reverse. */
export function editTools(assembly: PromptAssembly, spec: ListenerPluginSpec['listener']): void {
  let tools = assembly.tools.filter(tool => !spec.remove.includes(tool.name))
  tools = [...spec.prepend.map(schema), ...tools, ...spec.append.map(schema)]
  if (spec.reverse) tools.reverse()
  assembly.tools = tools
}

/**
 * A plugin that registers a `system-prompt/assemble` listener editing the tool
 * list before handing on. Listeners run in registration order, so two
 * non-commuting listeners race exactly as their plugins' registrations do.
 */
export function listenerPlugin(spec: ListenerPluginSpec) {
  return {
    name: spec.id,
    inject: ['systemPrompt'],
    apply(ctx: Context) {
      ctx.on('system-prompt/assemble', (assembly, _context, next) => {
        editTools(assembly, spec.listener)
        return next()
      })
    },
  }
}
