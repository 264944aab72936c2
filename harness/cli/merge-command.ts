import { obsoleteGoldens } from '../goldens/obsolete.ts'
import type { ScenarioReport } from '../judge/scenario-report.ts'
import { reportWhole } from '../report/reporter.ts'
import { REPORTERS, reporterNames } from '../report/reporters/index.ts'
import { ScenarioError, ScenarioErrors } from '../scenario/errors.ts'
import { loadScenario } from '../scenario/load.ts'
import type { Scenario } from '../scenario/types.ts'
import { TARGET_NAMES } from '../scenario/types.ts'
import { VARIANT_NAMES } from '../targets/catalogue.ts'
import { runnersFor } from '../runners/by-host.ts'
import { assembleReport, judge } from '../sweep/sweep.ts'
import { onHost, withOverrides } from '../scenario/overrides.ts'
import { CURRENT_HOST, parseHost, type Host } from '../hosts/host.ts'
import { styleFor } from './colour.ts'
import type { Command } from './command.ts'
import { reportExitCode } from './exit-code.ts'
import { internalErrorReport } from '../judge/scenario-report.ts'
import { mergedExploration } from './merged-exploration.ts'
import { OPTIONS, readGoldens, readReport, readTimeout } from './options.ts'
import { readShardSet, scenariosAcross, type ScenarioAcrossShards } from './shard-set.ts'
import { EXIT, InputError, UsageError } from './usage-error.ts'
import { mergeSuiteShards, readSuiteShard, SuiteMergeError } from '../suite/merge.ts'
import { findingLines, suiteSummary, writeSuiteReport, type SuiteReport } from '../suite/report.ts'
import { testKey } from '../suite/results.ts'
import { isFinding } from '../suite/verdict.ts'

/** Loads the scenario file of every entry (once per file); all bad files are reported together. */
async function scenariosOf(groups: readonly ScenarioAcrossShards[]): Promise<Map<string, Scenario>> {
  const files = [...new Set(groups.filter(group => group.entries[0]!.skipped === undefined).map(group => group.entries[0]!.file))]
  const loaded = new Map<string, Scenario>()
  const errors: ScenarioError[] = []
  for (const file of files) {
    try {
      loaded.set(file, await loadScenario(file))
    } catch (error) {
      if (!(error instanceof ScenarioError)) throw error
      errors.push(error)
    }
  }
  if (errors.length > 0) throw new ScenarioErrors(errors)
  for (const group of groups) {
    const entry = group.entries[0]!
    const scenario = loaded.get(entry.file)
    if (scenario && scenario.name !== entry.name) {
      throw new InputError([`${entry.file} now holds scenario "${scenario.name}", not "${entry.name}" as the shards recorded`])
    }
  }
  return loaded
}

/** The scenario with the variant, target and first host an entry was swept under. */
function asSwept(original: Scenario, entry: ScenarioReport): Scenario {
  const variant = VARIANT_NAMES.find(name => name === entry.variant)
  const target = TARGET_NAMES.find(name => name === entry.target)
  if (!variant || !target) throw new InputError([`${entry.name}: unknown variant "${entry.variant}" or target "${entry.target}"`])
  return onHost(withOverrides(original, { variant, target }), firstHostOf(entry))
}

/** The host an entry was explored and judged on (its first host). */
function firstHostOf(entry: ScenarioReport): Host {
  return parseHost(entry.hosts[0] ?? CURRENT_HOST.name)
}

/** `loadrace merge`: one report from the reports of all shards of a sweep, judged anew. */
export const mergeCommand: Command = {
  spec: {
    name: 'merge',
    summary: 'merge the reports of the shards of one sweep and judge the whole',
    synopsis: 'merge DIR… --report DIR [options]',
    description: [
      'Each DIR holds the report.json of one shard (loadrace sweep --shard i/n). The shards must share strategy, seed, '
        + 'budget, depth and strength, and shards 1..n must each be given exactly once. Per scenario the outputs are united by hash, each '
        + 'distinct output\'s first interleaving is replayed once, and the whole is judged as an unsharded sweep would '
        + 'be: a divergence whose two sides fell in different shards is found, minimised and blamed. Scenario files are '
        + 'read from the paths the reports record (relative to the working directory).',
      'The shards of one loadrace test run (--shard i/n) merge the same way: their schedules are united, each shard\'s reruns alone are kept, and every test is judged on all the runs.',
    ],
    operands: [{ name: 'DIR…', help: 'folders holding the shards\' report.json' }],
    options: [OPTIONS.report, OPTIONS.format, OPTIONS.timeout, OPTIONS.updateGoldens, OPTIONS.goldens],
    maxOperands: Infinity,
  },
  async run(args, cli) {
    if (args.operands.length === 0) throw new UsageError('missing DIR: give the folders of the shard reports (see loadrace merge --help)')
    const output = readReport(args, undefined)
    const suiteShards = args.operands.map(readSuiteShard)
    if (suiteShards.some(shard => shard !== undefined)) {
      const missing = args.operands.filter((_, i) => suiteShards[i] === undefined)
      if (missing.length > 0) throw new InputError(missing.map(dir => `${dir}: no report.json of loadrace test (the other folders hold one; merge the shards of one run)`))
      let report
      try {
        report = mergeSuiteShards(suiteShards as { dir: string, report: SuiteReport }[])
      } catch (error) {
        if (error instanceof SuiteMergeError) throw new InputError([error.message])
        throw error
      }
      const written = await writeSuiteReport(output.dir, report)
      for (const test of report.tests) cli.stdout.write(`${test.verdict === 'holds' || test.verdict === 'skipped' ? '' : '✗ '}${test.verdict}  ${testKey(test)}\n${findingLines(test).map(line => `    ${line}\n`).join('')}`)
      cli.stdout.write(suiteSummary(report, written))
      return report.tests.some(test => isFinding(test.verdict)) ? EXIT.failed : EXIT.ok
    }
    const timeoutMs = readTimeout(args)
    const goldens = readGoldens(args, cli.env)
    const set = await readShardSet(args.operands)
    const groups = scenariosAcross(set)
    const scenarios = await scenariosOf(groups)

    const started = Date.now()
    const runners = runnersFor({ workers: 1, timeoutMs })
    const options = { strategy: set.strategy, seed: set.seed, budget: set.budget, depth: set.depth, strength: set.strength }
    const reports: ScenarioReport[] = []
    for (const group of groups) {
      const entry = group.entries[0]!
      const original = scenarios.get(entry.file)
      if (!original) {
        reports.push(entry)
        continue
      }
      const scenario = asSwept(original, entry)
      const shardTime = group.entries.reduce((total, shardEntry) => total + shardEntry.durationMs, 0)
      const begun = Date.now()
      try {
        // Replays run where the shards ran; a host difference a shard found stands for the whole sweep.
        const runner = runners.of(firstHostOf(entry))
        const hostDifference = group.entries.find(shardEntry => shardEntry.hostDifference !== undefined)?.hostDifference
        const exploration = await mergedExploration(scenario, group, options, runner)
        reports.push(await judge(original, scenario, exploration, {
          strategy: set.strategy,
          runner,
          goldens,
          hosts: entry.hosts,
          ...hostDifference === undefined ? {} : { otherHosts: hostDifference },
        }, Date.now() - shardTime))
      } catch (error) {
        reports.push(internalErrorReport(scenario, set.strategy, error, Date.now() - begun + shardTime))
      }
    }
    const complete = set.shards.every(shard => shard.report.complete)
    const workers = Math.max(...set.shards.map(shard => shard.report.options.workers))
    const shardsTime = set.shards.reduce((total, shard) => total + shard.report.summary.durationMs, 0)
    await runners.close()
    const hosts = set.shards[0]!.report.options.hosts?.map(name => parseHost(name))
    const report = assembleReport(reports, { ...options, workers, ...hosts === undefined ? {} : { hosts } }, complete, shardsTime + Date.now() - started)
    if (goldens.ci && complete) {
      const obsolete = await obsoleteGoldens(groups.map(group => group.entries[0]!), goldens)
      if (obsolete.length > 0) report.obsoleteGoldens = obsolete
    }
    const setup = { ...cli, style: styleFor(cli.stdout, cli.env), reporter: 'default' as const, showOutput: false, dir: output.dir, formats: output.formats }
    // The shards' own sweeps annotated their failures already.
    await reportWhole(reporterNames(setup).filter(name => name !== 'github-annotations').map(name => REPORTERS[name](setup)), report)
    return reportExitCode(report, cli.stderr)
  },
}
