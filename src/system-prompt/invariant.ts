import type { Context } from '@deepseek-ai/cordis'
import { VARIABLE_NAME } from './service.ts'
import type { PromptAssembly } from './prompt.ts'
import { InvariantError } from '../runtime/invariant-error.ts'

/** The package name invariant failures of the prompt assembly are attributed to. */
export const PROMPT_INVARIANT_OWNER = 'loadrace/system-prompt'

export { InvariantError }

/**
 * The problems of an authoritative assembly, in a fixed order (empty when it
 * is well-formed): section and context names non-empty and unique, texts
 * strings, tool names non-empty, variable names valid, variable values strings
 * or `undefined`.
 */
export function assemblyProblems(assembly: PromptAssembly): string[] {
  const problems: string[] = []
  for (const [kind, entries] of [['section', assembly.sections], ['context', assembly.contexts]] as const) {
    const seen = new Set<string>()
    for (const entry of entries) {
      if (entry.name.length === 0) problems.push(`assembled ${kind} names must be non-empty`)
      else if (seen.has(entry.name)) problems.push(`assembled ${kind} name ${JSON.stringify(entry.name)} is duplicated`)
      seen.add(entry.name)
      if (typeof entry.text !== 'string') problems.push(`assembled ${kind} ${JSON.stringify(entry.name)} text must be a string`)
    }
  }
  for (const tool of assembly.tools) {
    if (typeof tool.name !== 'string' || tool.name.length === 0) problems.push('assembled tool names must be non-empty strings')
  }
  for (const [name, value] of Object.entries(assembly.variables)) {
    if (!VARIABLE_NAME.test(name)) problems.push(`assembled variable name ${JSON.stringify(name)} is invalid`)
    if (value !== undefined && typeof value !== 'string') problems.push(`assembled variable ${JSON.stringify(name)} must be a string or undefined`)
  }
  return problems
}

/**
 * The prompt-assembly invariant companion (REFERENCE-SPEC §4.5): a global,
 * prepended `system-prompt/assemble` listener that lets the whole chain run,
 * then rejects the assembly with an {@link InvariantError} naming the first
 * problem of the authoritative result.
 */
export const SystemPromptInvariant = {
  name: 'system-prompt-invariant',
  apply(ctx: Context): void {
    ctx.on('system-prompt/assemble', async (_assembly, _context, next) => {
      const assembled = await next()
      const [problem] = assemblyProblems(assembled)
      if (problem !== undefined) throw new InvariantError(PROMPT_INVARIANT_OWNER, problem)
      return assembled
    }, { global: true, prepend: true })
  },
}
