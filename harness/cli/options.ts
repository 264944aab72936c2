import { availableParallelism } from 'node:os'
import { parseFormats, REPORT_FORMATS, type ReportFormat } from '../report/write.ts'
import { STDOUT_REPORTERS, type StdoutReporter } from '../report/reporters/index.ts'
import { TIMEOUT_RANGE, type TargetName } from '../scenario/types.ts'
import {
  APPLICATION_TIMEOUT_MS, checkDistinctRuntimes, DEFAULT_BUDGET, DEFAULT_DEPTH, DEFAULT_STRENGTH, DEFAULT_TIMEOUT_MS, type GoldenPolicy, HOST_FORMS,
  type Host, nodeBinaryOf, parseHost, parseHosts, parseShard, type Shard, STRATEGY_NAMES, type StrategyName, targetNames, VARIANT_NAMES, type VariantName,
} from '../sweep/settings.ts'
import type { OptionSpec, ParsedArgs } from './args.ts'
import { valueOf } from './args.ts'
import type { Output } from './command.ts'
import { isCi, type Env } from './environment.ts'
import { UsageError } from './usage-error.ts'
import { nonEmpty, oneOf, parsedBy, wholeNumber } from './values.ts'

/** The options of the `loadrace` commands, each defined once and shared by the commands that take it. */
export const OPTIONS = {
  strategy: { name: 'strategy', value: 'NAME', default: 'auto', help: `how to pick interleavings: ${STRATEGY_NAMES.join('|')}` },
  budget: { name: 'budget', value: 'N', default: String(DEFAULT_BUDGET), help: 'most interleavings per scenario, a whole number ≥ 1' },
  seed: { name: 'seed', value: 'S', default: '0', help: 'seed of every random choice; the same seed explores the same interleavings' },
  depth: { name: 'depth', value: 'D', default: String(DEFAULT_DEPTH), help: 'PCT bug depth (strategy pct)' },
  strength: { name: 'strength', value: 'T', default: String(DEFAULT_STRENGTH), help: 'covering strength t (strategy cover)' },
  variant: { name: 'variant', value: 'NAME', default: "each scenario's own", help: `run every scenario under this ordering variant: ${VARIANT_NAMES.join('|')}` },
  target: { name: 'target', value: 'NAME', default: "each scenario's own", help: `run every scenario against this system: ${targetNames().join('|')}` },
  shard: { name: 'shard', value: 'i/n', help: 'explore only shard i of n of every interleaving space (positions ≡ i−1 mod n); combine with loadrace merge' },
  workers: { name: 'workers', value: 'N', default: `${availableParallelism()}, the available CPUs`, help: 'worker processes running interleavings, at most the available CPUs; 1 runs them in this process' },
  timeout: {
    name: 'timeout',
    value: 'MS',
    default: `the scenario's timeout, else ${DEFAULT_TIMEOUT_MS} (${APPLICATION_TIMEOUT_MS} for app: entries)`,
    help: `per-interleaving timeout in milliseconds (${TIMEOUT_RANGE.min}..${TIMEOUT_RANGE.max}); a run that outlives it is reported stuck`,
  },
  report: { name: 'report', value: 'DIR', default: 'reports/latest', help: 'folder the report files are written to (atomically)' },
  keepWorkdirs: { name: 'keep-workdirs', help: 'keep the temporary folder of every interleaving whose outcome is not the expected one, and say where (each is removed otherwise)' },
  format: { name: 'format', value: 'LIST', default: REPORT_FORMATS.join(','), help: `comma-separated report formats: ${REPORT_FORMATS.join(', ')}` },
  goldens: { name: 'goldens', value: 'DIR', default: 'goldens/ beside the scenario folder', help: 'folder of the pinned canonical projections, for every scenario' },
  updateGoldens: { name: 'update-goldens', short: 'u', help: 'write every golden anew from this run (also under CI)' },
  host: {
    name: 'host',
    value: 'HOST',
    default: 'node22 for a dsh scenario when Node 22 is found (LOADRACE_NODE22, node_modules/.cache/loadrace/node22), else current',
    help: `run every interleaving on this host: ${HOST_FORMS}; other than current, workers are child processes on that Node and environment`,
  },
  hosts: {
    name: 'hosts',
    value: 'LIST',
    help: 'run the same interleavings on each of these comma-separated hosts and compare them: the same interleaving giving other bytes on another host is verdict host-dependent',
  },
  filter: { name: 'filter', short: 't', value: 'PATTERN', help: 'sweep only the scenarios whose name matches this regular expression' },
  bail: { name: 'bail', help: 'stop after the first scenario that fails (the report says complete: false)' },
  showOutput: {
    name: 'show-output',
    help: 'print what the system under test printed (stdout, stderr, console) under every scenario, not only under a failed one; report.json always has it',
  },
  reporter: { name: 'reporter', value: 'NAME', default: 'default', help: `what stdout gets: ${STDOUT_REPORTERS.join('|')} (json: report.json, and the scenario lines go to stderr)` },
  json: { name: 'json', help: 'print one JSON object {token, hash, schedule, projection, output} instead (output: what the system printed, when it printed anything)' },
  scenarios: { name: 'scenarios', value: 'PATH', default: 'scenarios/', repeatable: true, help: 'scenario file or folder to search for the scenario (repeatable)' },
} as const satisfies Record<string, OptionSpec>

/** How to explore each scenario. */
export interface ExploreSettings {
  strategy: StrategyName
  budget: number
  seed: string
  depth?: number
  strength?: number
  variant?: VariantName
  target?: TargetName
  shard?: Shard
}

function optional<T>(args: ParsedArgs, option: OptionSpec, read: (text: string) => T): T | undefined {
  const text = valueOf(args, option.name)
  return text === undefined ? undefined : read(text)
}

/** `--strategy --budget --seed --depth --strength --variant --target --shard`. */
export function readExplore(args: ParsedArgs): ExploreSettings {
  return {
    strategy: optional(args, OPTIONS.strategy, text => oneOf('strategy', text, STRATEGY_NAMES)) ?? 'auto',
    budget: optional(args, OPTIONS.budget, text => wholeNumber('budget', text, 1)) ?? DEFAULT_BUDGET,
    seed: optional(args, OPTIONS.seed, text => nonEmpty('seed', text)) ?? '0',
    depth: readDepth(args),
    strength: readStrength(args),
    variant: optional(args, OPTIONS.variant, text => oneOf('variant', text, VARIANT_NAMES)),
    target: optional(args, OPTIONS.target, text => oneOf('target', text, targetNames())),
    shard: optional(args, OPTIONS.shard, text => parsedBy('shard', text, parseShard)),
  }
}

/** `--depth`, when given. */
export function readDepth(args: ParsedArgs): number | undefined {
  return optional(args, OPTIONS.depth, text => wholeNumber('depth', text, 1))
}

/** `--strength`, when given. */
export function readStrength(args: ParsedArgs): number | undefined {
  return optional(args, OPTIONS.strength, text => wholeNumber('strength', text, 1))
}

/**
 * `--workers`, or the available parallelism. More than the available CPUs
 * only slows the work down: it is capped, with a note on `stderr`.
 */
export function readWorkers(args: ParsedArgs, stderr?: Output): number {
  const cpus = availableParallelism()
  const asked = optional(args, OPTIONS.workers, text => wholeNumber('workers', text, 1)) ?? cpus
  if (asked <= cpus) return asked
  stderr?.write(`loadrace: --workers ${asked} is more than the ${cpus} available CPU${cpus === 1 ? '' : 's'}; using ${cpus}\n`)
  return cpus
}

/**
 * `--host` or `--hosts` (not both), when given: each host's Node must be
 * found, and two hosts of `--hosts` that resolve to the same runtime are bad
 * input (the comparison would compare a runtime with itself).
 */
export function readHosts(args: ParsedArgs): Host[] | undefined {
  const one = optional(args, OPTIONS.host, text => [parsedBy('host', text, parseHost)])
  const many = optional(args, OPTIONS.hosts, text => parsedBy('hosts', text, parseHosts))
  if (one !== undefined && many !== undefined) throw new UsageError('--host and --hosts: give one of them (--hosts a,b compares hosts; --host runs on one)')
  const hosts = one ?? many
  for (const host of hosts ?? []) parsedBy(one !== undefined ? 'host' : 'hosts', host.name, () => nodeBinaryOf(host))
  if (many !== undefined) parsedBy('hosts', '', () => checkDistinctRuntimes(many))
  return hosts
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

/** `--timeout`, when given (otherwise each scenario's own timeout applies). */
export function readTimeout(args: ParsedArgs): number | undefined {
  return optional(args, OPTIONS.timeout, text => wholeNumber('timeout', text, TIMEOUT_RANGE.min, TIMEOUT_RANGE.max))
}

/** Where and in which formats the report is written. */
export interface ReportDestination {
  dir: string
  formats: ReportFormat[]
}

/** `--report --format`; `fallbackDir` when `--report` is not given (undefined: it is required). */
export function readReport(args: ParsedArgs, fallbackDir: string | undefined): ReportDestination {
  const dir = optional(args, OPTIONS.report, text => nonEmpty('report', text)) ?? fallbackDir
  if (dir === undefined) throw new UsageError('--report: required; name the folder to write the report to')
  return { dir, formats: optional(args, OPTIONS.format, text => parsedBy('format', text, parseFormats)) ?? [...REPORT_FORMATS] }
}

/** `--goldens --update-goldens`, and whether this is CI (a missing golden then fails instead of being written). */
export function readGoldens(args: ParsedArgs, env: Env): GoldenPolicy {
  return {
    dir: optional(args, OPTIONS.goldens, text => nonEmpty('goldens', text)),
    update: args.flags.has(OPTIONS.updateGoldens.name),
    ci: isCi(env),
  }
}
