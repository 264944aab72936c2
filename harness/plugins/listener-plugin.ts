import type { Context } from '@deepseek-ai/cordis'
import type { ListenerPluginSpec } from '../scenario/scenario.ts'
import type { PromptAssemblyTools } from '../targets/target.ts'

function schema(name: string) {
  return { name, description: `${name} tool`, parameters: { type: 'object', properties: {} } }
}

/**
 * What a listener spec does to a tool list, in a fixed order: remove, prepend,
 * append, reverse; `make` builds an added tool from its name. Returns a new list.
 */
export function editToolList<T extends { readonly name: string }>(tools: readonly T[], spec: ListenerPluginSpec['listener'], make: (name: string) => T): T[] {
  const edited = [...spec.prepend.map(make), ...tools.filter(tool => !spec.remove.includes(tool.name)), ...spec.append.map(make)]
  if (spec.reverse) edited.reverse()
  return edited
}

/** Applies a listener spec to an assembly's tool list (see `editToolList`). */
export function editTools(assembly: PromptAssemblyTools, spec: ListenerPluginSpec['listener']): void {
  assembly.tools = editToolList(assembly.tools, spec, schema)
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
