/**
 * The root cause of a failed output: the first error it logged in boot
 * order — its first load error, else its first turn error, else the crash
 * that ended it (a crash comes after whatever was logged before it) — and the config
 * field that error names, when the system's message names a field the
 * scenario sets (`toolOrder must contain …` → `config.toolOrder`; a plugin's
 * rejected config → `plugins[1].config.limit`). Everything logged after it
 * follows from it, and is said after it.
 */
import type { Projection } from '../projection/projection.ts'
import type { Scenario } from '../scenario/scenario.ts'
import { describeCrash } from '../verdict/outcome.ts'

/** The first error of an output, and where in the scenario it points. */
export interface RootCause {
  kind: 'load' | 'turn' | 'crash'
  text: string
  /** The config field the message names, as the scenario file spells its path. */
  field?: string
}

function escaped(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Whether `text` names `key` as a word of its own. */
function names(text: string, key: string): boolean {
  return new RegExp(`(^|[^A-Za-z0-9_$])${escaped(key)}($|[^A-Za-z0-9_$])`).test(text)
}

/** Every config field the scenario sets, as its file spells the path, in file order. */
function configFields(scenario: Scenario): { key: string, path: string }[] {
  const fields = Object.keys(scenario.config).map(key => ({ key, path: `config.${key}` }))
  for (const [service, config] of Object.entries(scenario.base)) {
    if (config !== null && typeof config === 'object') for (const key of Object.keys(config)) fields.push({ key, path: `base.${service}.${key}` })
  }
  scenario.plugins.forEach((plugin, index) => {
    if (plugin.kind !== 'module' || plugin.config === undefined) return
    const at = scenario.entries === undefined ? `plugins[${index}]` : `entry ${plugin.id}`
    for (const key of Object.keys(plugin.config)) fields.push({ key, path: `${at}.config.${key}` })
  })
  return fields
}

/** The config field `text` names, if any. */
function fieldNamed(scenario: Scenario, text: string): string | undefined {
  return configFields(scenario).find(field => names(text, field.key))?.path
}

/** The root cause of an output, or undefined when it logged no error. */
export function rootCause(scenario: Scenario, projection: Projection): RootCause | undefined {
  const { load, turn } = projection.errors
  const crash = projection.crash === undefined ? undefined : describeCrash(projection.crash)
  const kind = load.length > 0 ? 'load' : turn.length > 0 ? 'turn' : crash !== undefined ? 'crash' : undefined
  if (kind === undefined) return undefined
  const text = kind === 'load' ? load[0]! : kind === 'turn' ? turn[0]! : crash!
  const field = fieldNamed(scenario, text)
  return { kind, text, ...field === undefined ? {} : { field } }
}

/** The line that says a root cause: `first load error, at config.toolOrder: "…"`. */
export function causeLine(cause: RootCause): string {
  if (cause.kind === 'crash') return `crash: ${cause.text}`
  return `first ${cause.kind} error${cause.field === undefined ? '' : `, at ${cause.field}`}: ${JSON.stringify(cause.text)}`
}

/** The errors an output logged after its root cause, in order, each as `load error "…"`, `turn error "…"` or `crash: …`. */
export function followOnErrors(projection: Projection, cause: RootCause | undefined): string[] {
  const { load, turn } = projection.errors
  const said = [
    ...load.map(text => `load error ${JSON.stringify(text)}`),
    ...turn.map(text => `turn error ${JSON.stringify(text)}`),
    ...projection.crash === undefined ? [] : [`crash: ${describeCrash(projection.crash)}`],
  ]
  return cause === undefined ? said : said.slice(1)
}
