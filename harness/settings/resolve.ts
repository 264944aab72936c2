import { STRATEGY_NAMES } from '../strategies/index.ts'
import { VARIANT_NAMES } from '../targets/catalogue.ts'
import { targetNames } from '../targets/registry.ts'
import { checkDistinctRuntimes, nodeBinaryOf, parseHost, parseHosts, type Host } from '../hosts/host.ts'
import { TIMEOUT_RANGE } from '../scenario/scenario.ts'
import { availableCpus, defaultsOf, type CommandName } from './defaults.ts'
import { isCi, type Env } from './environment.ts'
import { parseDocumentFormats, parseFormats } from './formats.ts'
import type { KnobName, Settings } from './settings.ts'
import { parseShard } from './shard.ts'
import { UsageError } from './usage-error.ts'
import { parseOrders, ORDER_SEPARATOR } from './orders.ts'
import { nonEmpty, oneOf, onOff, parsedBy, wholeNumber } from './values.ts'
import { MAX_JOBS } from './defaults.ts'

/** A knob as the command line and the environment name it. */
export interface Knob {
  name: Exclude<KnobName, 'ci'>
  /** Its options on the command line, without the dashes (`hosts` has two: `--host` for one host, `--hosts` for a list). */
  options: readonly string[]
  /** Its variables, one per option. */
  variables: readonly string[]
  /** A flag: given or not on the command line, yes or no in the environment. */
  flag?: true
}

/** Every knob the command line and the environment can set, in the order they are documented. (`ci` is `CI`'s.) */
export const KNOBS: readonly Knob[] = [
  { name: 'strategy', options: ['strategy'], variables: ['LOADRACE_STRATEGY'] },
  { name: 'budget', options: ['budget'], variables: ['LOADRACE_BUDGET'] },
  { name: 'seed', options: ['seed'], variables: ['LOADRACE_SEED'] },
  { name: 'depth', options: ['depth'], variables: ['LOADRACE_DEPTH'] },
  { name: 'strength', options: ['strength'], variables: ['LOADRACE_STRENGTH'] },
  { name: 'variant', options: ['variant'], variables: ['LOADRACE_VARIANT'] },
  { name: 'target', options: ['target'], variables: ['LOADRACE_TARGET'] },
  { name: 'shard', options: ['shard'], variables: ['LOADRACE_SHARD'] },
  { name: 'workers', options: ['workers'], variables: ['LOADRACE_WORKERS'] },
  { name: 'timeoutMs', options: ['timeout'], variables: ['LOADRACE_TIMEOUT'] },
  { name: 'hosts', options: ['host', 'hosts'], variables: ['LOADRACE_HOST', 'LOADRACE_HOSTS'] },
  { name: 'report', options: ['report'], variables: ['LOADRACE_REPORT'] },
  { name: 'format', options: ['format'], variables: ['LOADRACE_FORMAT'] },
  { name: 'goldens', options: ['goldens'], variables: ['LOADRACE_GOLDENS'] },
  { name: 'updateGoldens', options: ['update-goldens'], variables: ['LOADRACE_UPDATE_GOLDENS'], flag: true },
  { name: 'keepWorkdirs', options: ['keep-workdirs'], variables: ['LOADRACE_KEEP_WORKDIRS'], flag: true },
  { name: 'reruns', options: ['reruns'], variables: ['LOADRACE_RERUNS'] },
  { name: 'jobs', options: ['jobs'], variables: ['LOADRACE_JOBS'] },
  { name: 'junit', options: ['junit'], variables: ['LOADRACE_JUNIT'] },
  { name: 'order', options: ['order'], variables: ['LOADRACE_ORDER'] },
  { name: 'only', options: ['only'], variables: ['LOADRACE_ONLY'] },
]

/** The knob named `name`. */
export function knobNamed(name: Knob['name']): Knob {
  return KNOBS.find(knob => knob.name === name)!
}

/** What the command line (or another caller) gave, by option name without the dashes. */
export interface GivenArgs {
  /** The option's value as text; undefined: not given. */
  value(option: string): string | undefined
  /** Every value of a repeatable option, in the order given; undefined or empty: not given. */
  values?(option: string): readonly string[] | undefined
  /** A flag: true when given; false when the caller says no; undefined: not given. */
  flag(option: string): boolean | undefined
  /** How an error names what was given; default `--option`. */
  nameOf?(option: string): string
}

/** Where to resolve settings from. */
export interface SettingsSources {
  /** The command whose defaults apply. */
  command: CommandName
  /** The options this command takes (without dashes): only their knobs are read from `given` and `env`; the rest keep their defaults. Default: every knob's. */
  options?: readonly string[]
  /** The command line (or another caller's own values, as text). */
  given?: GivenArgs
  env: Env
  /** Told when `workers` is more than the CPUs and capped. */
  notes?: { write(text: string): unknown }
}

/** A value found for a knob, and where: `--option` or the variable's name. */
interface Found {
  text: string
  source: string
}

/**
 * Resolves every setting of a run once: the command line beats the
 * environment (each knob's `LOADRACE_*` variable), which beats the command's
 * defaults (`defaults.ts`). Every value is validated here, and a bad one
 * throws a one-line `UsageError` naming where it came from (`--budget` or
 * `LOADRACE_BUDGET`) and what is allowed. An empty variable counts as unset.
 * A scenario's own keys (`budget:`, `timeout:`, …) apply later, per scenario.
 */
export function resolveSettings(sources: SettingsSources): Settings {
  const defaults = defaultsOf(sources.command)
  const takes = (option: string) => sources.options === undefined || sources.options.includes(option)
  const taken = (knob: Knob) => knob.options.some(takes)
  const found = (name: Knob['name']): Found | undefined => {
    const knob = knobNamed(name)
    const options = knob.options.filter(takes)
    for (const option of options) {
      const text = sources.given?.value(option)
      if (text !== undefined) return { text, source: sources.given?.nameOf?.(option) ?? `--${option}` }
    }
    for (const option of options) {
      const variable = knob.variables[knob.options.indexOf(option)]!
      const text = sources.env[variable]
      if (text !== undefined && text !== '') return { text, source: variable }
    }
    return undefined
  }
  const read = <T>(name: Knob['name'], parse: (found: Found) => T): T | undefined => {
    const value = found(name)
    return value === undefined ? undefined : parse(value)
  }
  const flag = (name: Knob['name'], fallback: boolean): boolean => {
    const knob = knobNamed(name)
    if (!taken(knob)) return fallback
    const given = knob.options.filter(takes).map(option => sources.given?.flag(option)).find(value => value !== undefined)
    if (given !== undefined) return given
    const value = found(name)
    return value === undefined ? fallback : onOff(value.source, value.text)
  }
  const documents = sources.command === 'matrix' || sources.command === 'diff-targets'
  const report = read('report', ({ text, source }) => nonEmpty(source, text)) ?? defaults.report
  if (report === undefined) throw new UsageError('--report: required; name the folder to write the report to')
  const settings: Settings = {
    strategy: read('strategy', ({ text, source }) => oneOf(source, text, STRATEGY_NAMES)) ?? defaults.strategy,
    budget: read('budget', ({ text, source }) => wholeNumber(source, text, 1)) ?? defaults.budget,
    seed: read('seed', ({ text, source }) => nonEmpty(source, text)) ?? defaults.seed,
    workers: workersOf(found('workers'), defaults.workers, sources.notes),
    report,
    format: read('format', ({ text, source }) => parsedBy(source, text, documents ? parseDocumentFormats : parseFormats)) ?? [...defaults.format],
    updateGoldens: flag('updateGoldens', defaults.updateGoldens),
    keepWorkdirs: flag('keepWorkdirs', defaults.keepWorkdirs),
    ci: isCi(sources.env),
    reruns: read('reruns', ({ text, source }) => wholeNumber(source, text, 1)) ?? defaults.reruns,
    jobs: read('jobs', ({ text, source }) => wholeNumber(source, text, 1, MAX_JOBS)) ?? defaults.jobs,
  }
  const depth = read('depth', ({ text, source }) => wholeNumber(source, text, 1)) ?? defaults.depth
  if (depth !== undefined) settings.depth = depth
  const strength = read('strength', ({ text, source }) => wholeNumber(source, text, 1)) ?? defaults.strength
  if (strength !== undefined) settings.strength = strength
  const variant = read('variant', ({ text, source }) => oneOf(source, text, VARIANT_NAMES))
  if (variant !== undefined) settings.variant = variant
  const target = read('target', ({ text, source }) => oneOf(source, text, targetNames()))
  if (target !== undefined) settings.target = target
  const shard = read('shard', ({ text, source }) => parsedBy(source, text, parseShard))
  if (shard !== undefined) settings.shard = shard
  const timeoutMs = read('timeoutMs', ({ text, source }) => wholeNumber(source, text, TIMEOUT_RANGE.min, TIMEOUT_RANGE.max))
  if (timeoutMs !== undefined) settings.timeoutMs = timeoutMs
  const hosts = taken(knobNamed('hosts')) ? hostsOf(sources, takes) : undefined
  if (hosts !== undefined) settings.hosts = hosts
  const goldens = read('goldens', ({ text, source }) => nonEmpty(source, text))
  if (goldens !== undefined) settings.goldens = goldens
  const junit = read('junit', ({ text, source }) => nonEmpty(source, text))
  if (junit !== undefined) settings.junit = junit
  const order = ordersOf(sources, takes)
  if (order !== undefined) settings.order = order
  const only = read('only', ({ text, source }) => nonEmpty(source, text))
  if (only !== undefined) settings.only = only
  checkTogether(settings, name => found(name)?.source ?? `--${knobNamed(name).options[0]}`)
  return settings
}

/**
 * `--order`, repeatable on the command line, or `LOADRACE_ORDER` with its
 * orders separated by `;` (a replay of one run of `loadrace test`).
 */
function ordersOf(sources: SettingsSources, takes: (option: string) => boolean): Settings['order'] {
  if (!takes('order')) return undefined
  const given = sources.given?.values?.('order') ?? (sources.given?.value('order') === undefined ? [] : [sources.given.value('order')!])
  if (given.length > 0) return parseOrders(sources.given?.nameOf?.('order') ?? '--order', given)
  const text = sources.env.LOADRACE_ORDER
  if (text === undefined || text === '') return undefined
  return parseOrders('LOADRACE_ORDER', text.split(ORDER_SEPARATOR).map(part => part.trim()).filter(part => part !== ''))
}

/** Settings that are wrong only together: each pair said in one line, naming where each came from (`--jobs` or `LOADRACE_JOBS`). */
function checkTogether(settings: Settings, sourceOf: (name: Knob['name']) => string): void {
  if (settings.only !== undefined && settings.order === undefined) {
    throw new UsageError(`${sourceOf('only')}: needs --order (it narrows a replay to one test)`)
  }
  if (settings.jobs > 1 && settings.junit !== undefined) {
    throw new UsageError(`${sourceOf('jobs')} ${settings.jobs}: not with ${sourceOf('junit')}, whose one file two reruns side by side would both write; give --jobs 1 or let loadrace add its own reporter`)
  }
}

/**
 * The workers asked for, or the available CPUs. More than the CPUs only
 * slows the work down: it is capped, with a note.
 */
function workersOf(found: Found | undefined, fallback: number | undefined, notes: SettingsSources['notes']): number {
  const cpus = availableCpus()
  const asked = found === undefined ? fallback ?? cpus : wholeNumber(found.source, found.text, 1)
  if (asked <= cpus) return asked
  notes?.write(`loadrace: ${found?.source ?? 'workers'} ${asked} is more than the ${cpus} available CPU${cpus === 1 ? '' : 's'}; using ${cpus}\n`)
  return cpus
}

/**
 * One host or a list of them (not both from one source), from the command
 * line, else the environment: each host's Node must be found, and two hosts
 * of a list that resolve to the same runtime are bad input (the comparison
 * would compare a runtime with itself).
 */
function hostsOf(sources: SettingsSources, takes: (option: string) => boolean): Host[] | undefined {
  const fromArgs = { one: takes('host') ? sources.given?.value('host') : undefined, many: takes('hosts') ? sources.given?.value('hosts') : undefined }
  if (fromArgs.one !== undefined && fromArgs.many !== undefined) throw new UsageError('--host and --hosts: give one of them (--hosts a,b compares hosts; --host runs on one)')
  const nonBlank = (text: string | undefined) => (text === '' ? undefined : text)
  const fromEnv = { one: takes('host') ? nonBlank(sources.env.LOADRACE_HOST) : undefined, many: takes('hosts') ? nonBlank(sources.env.LOADRACE_HOSTS) : undefined }
  const onArgs = fromArgs.one !== undefined || fromArgs.many !== undefined
  if (!onArgs && fromEnv.one !== undefined && fromEnv.many !== undefined) throw new UsageError('LOADRACE_HOST and LOADRACE_HOSTS: set one of them (LOADRACE_HOSTS=a,b compares hosts; LOADRACE_HOST runs on one)')
  const chosen = onArgs ? fromArgs : fromEnv
  const [oneSource, manySource] = onArgs ? ['--host', '--hosts'] : ['LOADRACE_HOST', 'LOADRACE_HOSTS']
  const one = chosen.one === undefined ? undefined : [parsedBy(oneSource, chosen.one, parseHost)]
  const many = chosen.many === undefined ? undefined : parsedBy(manySource, chosen.many, parseHosts)
  const hosts = one ?? many
  for (const host of hosts ?? []) parsedBy(one !== undefined ? oneSource : manySource, host.name, () => nodeBinaryOf(host))
  if (many !== undefined) parsedBy(manySource, '', () => checkDistinctRuntimes(many))
  return hosts
}
