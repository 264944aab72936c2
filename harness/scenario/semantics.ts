/**
 * The rules a schema cannot state: which keys of a plugin entry go together,
 * unique and reserved ids, `when` references, and expectations that only make
 * sense for some outcomes. Each rule looks only at values of the right type,
 * so a structural problem is never reported twice.
 */
import { ERROR_OUTCOMES, HEADER_OUTCOMES, OUTCOMES, type Outcome } from '../verdict/outcome.ts'
import { RESERVED_SERVICE_IDS } from './scenario.ts'
import { PLUGIN_KINDS, PLUGINS_ALLOWED, SCENARIO_NAME } from './schema.ts'
import { isRecord } from './record.ts'
import { HOST_FORMS, HostError, parseHost } from '../hosts/host.ts'
import { showValue } from './show.ts'
import { didYouMean } from '../spelling/did-you-mean.ts'
import type { FieldPath, Problem } from './problem.ts'
import { applicationTargets } from '../targets/registry.ts'

const LISTENER_ACTIONS = ['append', 'prepend', 'reverse', 'remove']
const WHEN_LISTS = ['after', 'before'] as const
const TOOL_KINDS = ['tools', 'batches']

function isOutcome(value: unknown): value is Outcome {
  return (OUTCOMES as readonly unknown[]).includes(value)
}

function at(path: FieldPath, problem: string, allowed: string, anchor: Problem['anchor'] = 'value'): Problem {
  return { path, problem, allowed, anchor }
}

function checkName(value: Record<string, unknown>, defaultName: string): Problem[] {
  if (Object.hasOwn(value, 'name') || SCENARIO_NAME.test(defaultName)) return []
  return [{
    path: ['name'],
    problem: `missing, and the file name ${JSON.stringify(defaultName)} is not a valid scenario name`,
    allowed: 'set name: explicitly, matching [a-z0-9-]+',
    anchor: 'end',
    at: [],
  }]
}

function checkExpectation(value: Record<string, unknown>): Problem[] {
  const expect = value.expect
  if (!isRecord(expect)) return []
  const out: Problem[] = []
  const outcome = isOutcome(expect.outcome) ? expect.outcome : undefined
  if (Object.hasOwn(expect, 'error') && outcome !== undefined && !ERROR_OUTCOMES.includes(outcome)) {
    out.push(at(
      ['expect', 'error'],
      `error is only checked for a failing outcome, not ${outcome}`,
      `remove error, or expect ${ERROR_OUTCOMES.join(' or ')}`,
      'key',
    ))
  }
  if (!Object.hasOwn(expect, 'header')) return out
  if (Object.hasOwn(expect, 'tools')) {
    const later = laterKey(expect, 'tools', 'header')
    out.push(at(['expect', later], 'tools and header cannot be combined', 'header names the tools too: give one of them', 'key'))
  } else if (outcome !== undefined && !HEADER_OUTCOMES.includes(outcome)) {
    out.push(at(
      ['expect', 'header'],
      `no request header is logged when the outcome is ${outcome}`,
      `remove header, or expect ${HEADER_OUTCOMES.join(' or ')}`,
      'key',
    ))
  }
  return out
}

/** The later of two keys of a mapping, in document order. */
function laterKey(entry: Record<string, unknown>, a: string, b: string): string {
  const keys = Object.keys(entry)
  return keys.indexOf(a) > keys.indexOf(b) ? a : b
}

function checkKinds(entry: Record<string, unknown>, path: FieldPath): Problem[] {
  const has = (key: string) => Object.hasOwn(entry, key)
  const kinds = Object.keys(entry).filter((key) => (PLUGIN_KINDS as readonly string[]).includes(key))
  const out: Problem[] = []
  const exactlyOne = `exactly one of ${PLUGIN_KINDS.join(', ')} per entry`
  for (const extra of kinds.slice(1)) {
    out.push(at([...path, extra], `${extra} cannot be combined with ${kinds[0]}`, exactlyOne, 'key'))
  }
  if (kinds.length === 0 && !has('fault')) {
    out.push({
      path, problem: 'missing a plugin kind', anchor: 'end',
      allowed: `${exactlyOne}; a fault entry may have none`,
    })
  }
  if (has('config') && !has('module')) {
    out.push(at([...path, 'config'], 'config is only allowed with module', 'config is passed to a module plugin', 'key'))
  }
  const hasTools = TOOL_KINDS.some(has)
  if (has('when') && !hasTools) {
    out.push(at([...path, 'when'], 'when is only allowed with tools or batches', 'when guards the registration of tools', 'key'))
  }
  for (const kind of ['module', 'listener']) {
    if (!has('fault') || !has(kind)) continue
    const later = laterKey(entry, 'fault', kind)
    out.push(at([...path, later], `a fault cannot be combined with ${kind}`, 'a fault stands alone or comes with tools or batches', 'key'))
  }
  if (entry.fault === 'leak' && !hasTools) {
    out.push(at([...path, 'fault'], 'a leak fault has no tools to leak', 'add tools or batches to a leak entry'))
  }
  return out
}

function checkEntryValues(entry: Record<string, unknown>, path: FieldPath): Problem[] {
  const out: Problem[] = []
  if (typeof entry.weight === 'number' && !Number.isFinite(entry.weight)) {
    out.push(at([...path, 'weight'], `expected a finite number, got ${showValue(entry.weight)}`, 'a finite number, read by the per-plugin-weight variant'))
  }
  const listener = entry.listener
  if (isRecord(listener) && !LISTENER_ACTIONS.some((key) => Object.hasOwn(listener, key))) {
    out.push(at([...path, 'listener'], `expected at least one action, got ${showValue(listener)}`, `at least one of ${LISTENER_ACTIONS.join(', ')}`, 'end'))
  }
  const when = entry.when
  if (isRecord(when) && !WHEN_LISTS.some((key) => Object.hasOwn(when, key))) {
    out.push(at([...path, 'when'], `expected after or before, got ${showValue(when)}`, 'after: [plugin ids], before: [plugin ids]', 'end'))
  }
  return out
}

function checkWhenReferences(entry: Record<string, unknown>, path: FieldPath, ids: readonly string[]): Problem[] {
  const when = entry.when
  if (!isRecord(when)) return []
  const self = entry.id
  const others = ids.filter((id) => id !== self)
  const allowed = `ids of other plugins in this file: ${others.length === 0 ? '(none)' : others.join(', ')}`
  const out: Problem[] = []
  for (const list of WHEN_LISTS) {
    const refs = when[list]
    if (!Array.isArray(refs)) continue
    refs.forEach((ref: unknown, index) => {
      if (typeof ref !== 'string') return
      const refPath = [...path, 'when', list, index]
      if (ref === self) out.push(at(refPath, `${JSON.stringify(ref)} is this plugin itself`, allowed))
      else if (!ids.includes(ref)) out.push(at(refPath, `unknown plugin id ${JSON.stringify(ref)}${didYouMean(ref, ids)}`, allowed))
    })
  }
  return out
}

function checkPlugins(value: Record<string, unknown>): Problem[] {
  const plugins = value.plugins
  if (!Array.isArray(plugins)) return []
  const entries = plugins.map((entry: unknown) => isRecord(entry) ? entry : undefined)
  const ids = entries.flatMap((entry) => typeof entry?.id === 'string' ? [entry.id] : [])
  const reserved: readonly string[] = value.services === 'entries' ? RESERVED_SERVICE_IDS : []
  const seen = new Set<string>()
  const out: Problem[] = []
  entries.forEach((entry, index) => {
    if (!entry) return
    const path = ['plugins', index]
    const id = entry.id
    if (typeof id === 'string') {
      if (seen.has(id)) out.push(at([...path, 'id'], `duplicate id ${JSON.stringify(id)}`, 'ids are unique within a file'))
      else if (reserved.includes(id)) {
        out.push(at([...path, 'id'], `id ${JSON.stringify(id)} is reserved with services: entries`, `not one of ${reserved.join(', ')}`))
      }
      seen.add(id)
    }
    out.push(...checkKinds(entry, path), ...checkEntryValues(entry, path), ...checkWhenReferences(entry, path, ids))
  })
  return out
}

/** Exactly one of `plugins:` (entries written out) and `entries:` (a cordis.yml); a cordis.yml goes through cordis:include. */
function checkSource(value: Record<string, unknown>): Problem[] {
  const has = (key: string) => Object.hasOwn(value, key)
  if (!has('plugins') && !has('entries')) {
    return [{ path: ['plugins'], problem: 'required key is missing', allowed: `${PLUGINS_ALLOWED}; or entries: the path of a cordis.yml`, anchor: 'end', at: [] }]
  }
  if (has('plugins') && has('entries')) {
    const later = laterKey(value, 'plugins', 'entries')
    return [at([later], `${later} cannot be combined with ${later === 'plugins' ? 'entries' : 'plugins'}`, 'list plugins, or name a cordis.yml with entries', 'key')]
  }
  if (has('entries') && value.loader === 'memory') {
    return [at(['loader'], 'a cordis.yml named by entries is mounted through cordis:include', 'leave loader out, or set it to include', 'value')]
  }
  return []
}

/** In a scenario that lists its plugins, `expect.inactive` names plugin ids (or service entries racing as entries). */
function checkInactive(value: Record<string, unknown>): Problem[] {
  const expect = value.expect
  const plugins = value.plugins
  if (!isRecord(expect) || !Array.isArray(expect.inactive) || !Array.isArray(plugins)) return []
  const ids = [
    ...plugins.flatMap((entry: unknown) => isRecord(entry) && typeof entry.id === 'string' ? [entry.id] : []),
    ...value.services === 'entries' ? RESERVED_SERVICE_IDS : [],
  ]
  return expect.inactive.flatMap((id: unknown, index): Problem[] => typeof id !== 'string' || ids.includes(id) ? [] : [
    at(['expect', 'inactive', index], `unknown entry id ${JSON.stringify(id)}${didYouMean(id, ids)}`, `ids of this file's entries: ${ids.join(', ')}`),
  ])
}

/** Every semantic problem of a parsed scenario; `defaultName` is the file name without its extension. */
/** A `host:` must be a host name loadrace can read. */
function checkHost(value: Record<string, unknown>): Problem[] {
  if (typeof value.host !== 'string') return []
  try {
    parseHost(value.host)
    return []
  } catch (error) {
    return [at(['host'], error instanceof HostError ? error.message.replace(/ \(hosts: .*\)$/, '') : String(error), `a host: ${HOST_FORMS}`)]
  }
}

/** Variable names the isolation of every interleaving sets itself (a fresh home), which `env:` may not move. */
const ISOLATION_VARIABLES = ['HOME', 'USERPROFILE', 'PWD']

/** `env:` names are environment variable names, and leave the isolation's own alone. */
function checkEnv(value: Record<string, unknown>): Problem[] {
  if (!isRecord(value.env)) return []
  return Object.keys(value.env).flatMap((name): Problem[] => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return [at(['env', name], `${JSON.stringify(name)} is not a variable name`, 'letters, digits and _, not starting with a digit', 'key')]
    if (ISOLATION_VARIABLES.includes(name.toUpperCase())) return [at(['env', name], `${name} is set by loadrace for every interleaving (its own temporary folder)`, `another variable; ${ISOLATION_VARIABLES.join(', ')} are loadrace's`, 'key')]
    return []
  })
}

/** `app: entries` mounts the application of a cordis.yml; a snapshot judges that application; `expect.snapshot` needs a snapshot. */
function checkApplication(value: Record<string, unknown>): Problem[] {
  const out: Problem[] = []
  const entries = Object.hasOwn(value, 'entries')
  if (value.app === 'entries' && !entries && Object.hasOwn(value, 'plugins')) {
    out.push(at(['app'], 'app: entries runs the application of a cordis.yml, and this file lists plugins', 'name the cordis.yml with entries:, or choose another app', 'value'))
  }
  const applications = applicationTargets().map(target => target.name)
  if (value.app === 'entries' && !applications.includes(String(value.target))) {
    out.push(at(['app'], `app: entries runs the application a cordis.yml mounts, and only the ${applications.join(' or ')} target has one`, `add target: ${applications.join(' or ')}`, 'value'))
  }
  if (Object.hasOwn(value, 'snapshot') && value.app !== 'entries') {
    out.push(at(['snapshot'], 'a dsh snapshot pins what an application shows its model', 'add app: entries and entries: the configuration the snapshot was recorded with', 'key'))
  }
  if (Object.hasOwn(value, 'model') && value.app !== 'entries') {
    out.push(at(['model'], 'a scripted model stands in for an application\'s live adapter entry', 'add app: entries and entries: the configuration', 'key'))
  }
  if (isRecord(value.model)) {
    for (const list of ['providers', 'models'] as const) {
      if (!Array.isArray(value.model[list]) || value.model[list].length === 0) out.push(at(['model', list], `the scripted model needs ${list === 'providers' ? 'the routes' : 'the models'} it serves`, list === 'providers' ? 'a non-empty list of provider routes the application\'s agents use' : 'a non-empty list of model ids', Array.isArray(value.model[list]) ? 'value' : 'key'))
    }
  }
  if (Object.hasOwn(value, 'pinned') && !Object.hasOwn(value, 'snapshot')) {
    out.push(at(['pinned'], 'there is no snapshot for the pinned files to judge', 'add snapshot: the snapshot folder, or remove pinned', 'key'))
  }
  const expect = value.expect
  if (isRecord(expect) && Object.hasOwn(expect, 'snapshot') && !Object.hasOwn(value, 'snapshot')) {
    out.push(at(['expect', 'snapshot'], 'there is no snapshot to hold', 'add snapshot: the snapshot folder, or remove expect.snapshot', 'key'))
  }
  return out
}

/** `requires:` asks for something: a command or a platform. */
function checkRequires(value: Record<string, unknown>): Problem[] {
  const requires = value.requires
  if (!isRecord(requires)) return []
  const lists = ['commands', 'platforms'].filter(key => Array.isArray(requires[key]) && requires[key].length > 0)
  return lists.length > 0 ? [] : [at(['requires'], `expected a command or a platform, got ${showValue(requires)}`, 'commands: [names found on PATH] and/or platforms: [posix, linux, darwin, win32, …]', 'end')]
}

export function checkSemantics(value: Record<string, unknown>, defaultName: string): Problem[] {
  return [...checkName(value, defaultName), ...checkHost(value), ...checkSource(value), ...checkApplication(value), ...checkRequires(value), ...checkEnv(value), ...checkExpectation(value), ...checkInactive(value), ...checkPlugins(value)]
}
