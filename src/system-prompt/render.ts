import { VARIABLE_NAME } from './service.ts'
import type { PromptAssembly } from './prompt.ts'

/** Something with a name and a text that may reference `{{variables}}`. */
interface NamedText {
  readonly name: string
  readonly text: string
}

/**
 * The system prompt of an assembly (REFERENCE-SPEC §4.7): every section's
 * references interpolated, empty sections dropped, the rest joined by a blank
 * line. Returns `''` when nothing remains.
 */
export function renderPrompt(assembly: PromptAssembly): string {
  return renderAll(assembly.sections, assembly.variables, 'section').map(entry => entry.text).join('\n\n')
}

/** The runtime-context entries of an assembly, interpolated, without the empty ones. */
export function renderContexts(assembly: PromptAssembly): NamedText[] {
  return renderAll(assembly.contexts, assembly.variables, 'context')
}

function renderAll(entries: readonly NamedText[], variables: PromptAssembly['variables'], kind: string): NamedText[] {
  return entries
    .map(entry => ({ name: entry.name, text: interpolate(entry, variables, kind) }))
    .filter(entry => entry.text.length > 0)
}

/**
 * Strict `{{name}}` interpolation: a reference must be a complete simple group
 * naming an own, valued variable, or rendering fails. A `{{` with no `}}`
 * anywhere after it is literal text; substituted values are not rescanned.
 */
export function interpolate(entry: NamedText, variables: PromptAssembly['variables'], kind: string): string {
  const { text } = entry
  const where = `${kind} "${entry.name}"`
  let out = ''
  let cursor = 0
  for (let open = text.indexOf('{{'); open >= 0; open = text.indexOf('{{', cursor)) {
    const close = text.indexOf('}}', open + 2)
    if (close < 0) break
    const inner = text.slice(open + 2, close)
    if (inner.includes('{') || inner.includes('}')) {
      throw new Error(`malformed variable reference near "${text.slice(open, open + 16)}" in ${where}; write references as {{name}}`)
    }
    if (!VARIABLE_NAME.test(inner)) {
      throw new Error(`malformed variable reference "{{${inner}}}" in ${where}; names match ${String(VARIABLE_NAME)}`)
    }
    if (!Object.hasOwn(variables, inner)) {
      const known = Object.keys(variables)
      throw new Error(`unknown variable "{{${inner}}}" in ${where}; variables: ${known.join(', ') || '(none)'}`)
    }
    const value = variables[inner]
    if (value === undefined) throw new Error(`variable "{{${inner}}}" has no value in this assembly (${where})`)
    out += text.slice(cursor, open) + value
    cursor = close + 2
  }
  return out + text.slice(cursor)
}
