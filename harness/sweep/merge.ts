import { obsoleteGoldens } from '../goldens/obsolete.ts'
import type { GoldenPolicy } from '../goldens/golden.ts'
import type { PlanSettings } from '../explore/plan.ts'
import type { Settings } from '../settings/settings.ts'
import { internalErrorReport, type ScenarioReport } from '../judge/scenario-report.ts'
import { judge } from '../judge/judge.ts'
import type { Report } from '../report/sweep-report.ts'
import { InputError, ScenarioError, ScenarioErrors } from '../scenario/errors.ts'
import { loadScenario } from '../scenario/load.ts'
import type { Scenario } from '../scenario/scenario.ts'
import { onHost, withOverrides } from '../scenario/overrides.ts'
import { VARIANT_NAMES } from '../targets/catalogue.ts'
import { isTargetName } from '../targets/registry.ts'
import { runnersFor } from '../runners/by-host.ts'
import { CURRENT_HOST, parseHost, type Host } from '../hosts/host.ts'
import { mergedExploration } from './merged-exploration.ts'
import { readShardSet, scenariosAcross, type ScenarioAcrossShards } from './shard-set.ts'
import { assembleReport } from './sweep.ts'

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
  const target = isTargetName(entry.target) ? entry.target : undefined
  if (!variant || !target) throw new InputError([`${entry.name}: unknown variant "${entry.variant}" or target "${entry.target}"`])
  return onHost(withOverrides(original, { variant, target }), firstHostOf(entry))
}

/** The host an entry was explored and judged on (its first host). */
function firstHostOf(entry: ScenarioReport): Host {
  return parseHost(entry.hosts[0] ?? CURRENT_HOST.name)
}

/** The settings `mergeShards` reads: the replays' timeout and the golden policy (the rest is the shards' own). */
export type MergeSettings = Pick<Settings, 'timeoutMs'> & GoldenPolicy

/**
 * One report from the report folders of all shards of a sweep, judged anew:
 * per scenario the outputs are united by hash, each distinct output's first
 * interleaving is replayed once (where the shards ran it), and the whole is
 * judged as an unsharded sweep would be. Rejects with an `InputError` when
 * the folders are not the shards of one sweep.
 */
export async function mergeShards(dirs: readonly string[], settings: MergeSettings): Promise<Report> {
  const set = await readShardSet(dirs)
  const groups = scenariosAcross(set)
  const scenarios = await scenariosOf(groups)

  const started = Date.now()
  const runners = runnersFor({ workers: 1, timeoutMs: settings.timeoutMs })
  // The shards share their plan's settings (`readShardSet` checks it).
  const planned: PlanSettings = set
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
      const exploration = await mergedExploration(scenario, group, planned, runner)
      reports.push(await judge(original, scenario, exploration, {
        strategy: set.strategy,
        runner,
        goldens: settings,
        hostNames: entry.hosts,
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
  const report = assembleReport(reports, { strategy: set.strategy, seed: set.seed, budget: set.budget, depth: set.depth, strength: set.strength, workers, hosts }, complete, shardsTime + Date.now() - started)
  if (settings.ci && complete) {
    const obsolete = await obsoleteGoldens(groups.map(group => group.entries[0]!), settings)
    if (obsolete.length > 0) report.obsoleteGoldens = obsolete
  }
  return report
}
