import { STDOUT_REPORTERS, type StdoutReporter } from '../report/reporters/index.ts'
import { TIMEOUT_RANGE } from '../scenario/scenario.ts'
import {
  APPLIED_DEFAULTS, availableCpus, type CommandName, DEFAULTS, type GivenArgs, HOST_FORMS, KNOBS, MAX_JOBS, REPORT_FORMATS, resolveSettings, type Settings, STRATEGY_NAMES, targetNames, VARIANT_NAMES,
} from '../sweep/settings.ts'
import type { CommandSpec, OptionSpec, ParsedArgs } from './args.ts'
import { valueOf } from './args.ts'
import type { TextWriter } from './command.ts'
import type { Env } from './environment.ts'
import { UsageError } from './usage-error.ts'
import { nonEmpty, oneOf } from './values.ts'

/** The environment variable of a knob's option (`budget` → `LOADRACE_BUDGET`). */
function variableOf(option: string): string {
  const knob = KNOBS.find(candidate => candidate.options.includes(option))!
  return knob.variables[knob.options.indexOf(option)]!
}

/** The options of the `loadrace` commands, each defined once and shared by the commands that take it. */
export const OPTIONS = {
  strategy: { name: 'strategy', value: 'NAME', variable: variableOf('strategy'), default: DEFAULTS.strategy, help: `how to pick interleavings: ${STRATEGY_NAMES.join('|')}` },
  budget: { name: 'budget', value: 'N', variable: variableOf('budget'), default: String(DEFAULTS.budget), help: 'most interleavings per scenario, a whole number ≥ 1' },
  seed: { name: 'seed', value: 'S', variable: variableOf('seed'), default: DEFAULTS.seed, help: 'seed of every random choice; the same seed explores the same interleavings' },
  depth: { name: 'depth', value: 'D', variable: variableOf('depth'), default: String(APPLIED_DEFAULTS.depth), help: 'PCT bug depth (strategy pct)' },
  strength: { name: 'strength', value: 'T', variable: variableOf('strength'), default: String(APPLIED_DEFAULTS.strength), help: 'covering strength t (strategy cover)' },
  variant: { name: 'variant', value: 'NAME', variable: variableOf('variant'), default: "each scenario's own", help: `run every scenario under this ordering variant: ${VARIANT_NAMES.join('|')}` },
  target: { name: 'target', value: 'NAME', variable: variableOf('target'), default: "each scenario's own", help: `run every scenario against this system: ${targetNames().join('|')}` },
  shard: { name: 'shard', value: 'i/n', variable: variableOf('shard'), help: 'explore only shard i of n of every interleaving space (positions ≡ i−1 mod n); combine with loadrace merge' },
  workers: { name: 'workers', value: 'N', variable: variableOf('workers'), default: `${availableCpus()}, the available CPUs`, help: 'worker processes running interleavings, at most the available CPUs; 1 runs them in this process' },
  timeout: {
    name: 'timeout',
    value: 'MS',
    variable: variableOf('timeout'),
    default: `the scenario's timeout, else ${APPLIED_DEFAULTS.timeoutMs} (${APPLIED_DEFAULTS.applicationTimeoutMs} for app: entries)`,
    help: `per-interleaving timeout in milliseconds (${TIMEOUT_RANGE.min}..${TIMEOUT_RANGE.max}); a run that outlives it is reported stuck`,
  },
  report: { name: 'report', value: 'DIR', variable: variableOf('report'), default: DEFAULTS.report, help: 'folder the report files are written to (atomically)' },
  keepWorkdirs: { name: 'keep-workdirs', variable: variableOf('keep-workdirs'), help: 'keep the temporary folder of every interleaving whose outcome is not the expected one, and say where (each is removed otherwise)' },
  format: { name: 'format', value: 'LIST', variable: variableOf('format'), default: DEFAULTS.format.join(','), help: `comma-separated report formats: ${REPORT_FORMATS.join(', ')}` },
  goldens: { name: 'goldens', value: 'DIR', variable: variableOf('goldens'), default: 'goldens/ beside the scenario folder', help: 'folder of the pinned canonical projections, for every scenario' },
  updateGoldens: { name: 'update-goldens', short: 'u', variable: variableOf('update-goldens'), help: 'write every golden anew from this run (also under CI)' },
  host: {
    name: 'host',
    value: 'HOST',
    variable: variableOf('host'),
    default: 'node22 for a dsh scenario when Node 22 is found (LOADRACE_NODE22, node_modules/.cache/loadrace/node22), else current',
    help: `run every interleaving on this host: ${HOST_FORMS}; other than current, workers are child processes on that Node and environment`,
  },
  hosts: {
    name: 'hosts',
    value: 'LIST',
    variable: variableOf('hosts'),
    help: 'run the same interleavings on each of these comma-separated hosts and compare them: the same interleaving giving other bytes on another host is verdict host-dependent',
  },
  filter: { name: 'filter', short: 't', value: 'PATTERN', help: 'sweep only the scenarios whose name matches this regular expression' },
  bail: { name: 'bail', help: 'stop after the first scenario that fails (the report says complete: false)' },
  showOutput: {
    name: 'show-output',
    help: 'print what the system under test printed (stdout, stderr, console) under every scenario, not only under a failed one; report.json always has it',
  },
  reporter: { name: 'reporter', value: 'NAME', default: 'default', help: `what stdout gets: ${STDOUT_REPORTERS.join('|')} (json: report.json, and the scenario lines go to stderr)` },
  reruns: { name: 'reruns', value: 'N', variable: variableOf('reruns'), default: String(DEFAULTS.reruns), help: 'reruns alone of each side of a test whose result differs between runs, before it is called pins-one (another result there: flaky)' },
  jobs: {
    name: 'jobs',
    value: 'N',
    variable: variableOf('jobs'),
    default: String(DEFAULTS.jobs),
    help: `how many differing tests are decided side by side, each by its own reruns alone (1 to ${MAX_JOBS}); the command's full runs never overlap. Above 1 only for a suite whose runs may overlap (no fixed port, file or database shared between two runs); not with --junit`,
  },
  junit: { name: 'junit', value: 'FILE', variable: variableOf('junit'), help: 'read per-test results from this JUnit file the command writes (relative to the directory it runs in)' },
  order: { name: 'order', value: 'CONFIG=E1,E2,…', variable: variableOf('order'), repeatable: true, help: 'run the command once, the processes booting CONFIG releasing its entries in this order (repeatable; in the variable, separated by ;): a replay' },
  only: { name: 'only', value: 'NAME', variable: variableOf('only'), help: 'with --order: run only the test of this full name' },
  json: { name: 'json', help: 'print one JSON object {token, hash, schedule, projection, output} instead (output: what the system printed, when it printed anything)' },
  scenarios: { name: 'scenarios', value: 'PATH', default: 'scenarios/', repeatable: true, help: 'scenario file or folder to search for the scenario (repeatable)' },
} as const satisfies Record<string, OptionSpec>

function optional<T>(args: ParsedArgs, option: OptionSpec, read: (text: string) => T): T | undefined {
  const text = valueOf(args, option.name)
  return text === undefined ? undefined : read(text)
}

/** The command line as the settings read it. */
export function givenBy(args: ParsedArgs): GivenArgs {
  return { value: option => valueOf(args, option), values: option => args.values.get(option), flag: option => (args.flags.has(option) ? true : undefined) }
}

/**
 * The settings of a command, resolved once: its command line beats the
 * environment (`LOADRACE_*`), which beats its defaults. Only the knobs of the
 * options the command takes are read. `stderr` is told when `--workers` is
 * capped.
 */
export function readSettings(args: ParsedArgs, spec: CommandSpec, cli: { env: Env, stderr?: TextWriter }): Settings {
  return resolveSettings({
    command: spec.name as CommandName,
    options: spec.options.map(option => option.name),
    given: givenBy(args),
    env: cli.env,
    notes: cli.stderr,
  })
}

/** `env` without the variables of the knobs whose options are not among `options` (for a child process that takes more options than its parent). */
export function envFor(options: readonly string[], env: Env): Env {
  const foreign = new Set(KNOBS.filter(knob => !knob.options.some(option => options.includes(option))).flatMap(knob => knob.variables))
  return Object.fromEntries(Object.entries(env).filter(([name]) => !foreign.has(name)))
}

/** `--filter`: the pattern scenario names must match, when given. */
export function readFilter(args: ParsedArgs): RegExp | undefined {
  return optional(args, OPTIONS.filter, (text) => {
    try {
      return new RegExp(nonEmpty('filter', text), 'u')
    } catch (error) {
      throw new UsageError(`--filter: expected a regular expression, got "${text}" (${error instanceof Error ? error.message : String(error)})`)
    }
  })
}

/** `--reporter`, or `default`. */
export function readReporter(args: ParsedArgs): StdoutReporter {
  return optional(args, OPTIONS.reporter, text => oneOf('reporter', text, STDOUT_REPORTERS)) ?? 'default'
}
