import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Report } from '../report/sweep-report.ts'
import type { ReportOutput, ScenarioReport } from '../judge/scenario-report.ts'
import { STRATEGY_NAMES, type StrategyName } from '../strategies/index.ts'
import { parseShard, type Shard } from '../settings/shard.ts'
import { InputError } from '../scenario/errors.ts'

/** One shard's report, as read from its folder. */
export interface ShardReport {
  dir: string
  report: Report
  shard: Shard
}

/** What the shards of one sweep share. */
export interface ShardSet {
  strategy: StrategyName
  seed: string
  budget: number
  depth: number | undefined
  strength: number | undefined
  /** Every shard, ordered by index. */
  shards: ShardReport[]
}

function isReport(value: unknown): value is Report {
  if (typeof value !== 'object' || value === null) return false
  const report = value as Partial<Report>
  return report.tool === 'loadrace' && typeof report.options === 'object' && report.options !== null && Array.isArray(report.scenarios)
}

/** Reads `<dir>/report.json`; a line saying why when it cannot be used. */
async function readShard(dir: string): Promise<ShardReport | string> {
  const path = join(dir, 'report.json')
  let value: unknown
  try {
    value = JSON.parse(await readFile(path, 'utf8'))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return `${path}: ${code === 'ENOENT' ? 'no such file (each DIR must hold a sweep\'s report.json)' : `not readable JSON (${(error as Error).message})`}`
  }
  if (!isReport(value)) return `${path}: not a loadrace report`
  if (value.options.shard === null) return `${path}: not a shard report (sweep with --shard i/n to make shards)`
  try {
    return { dir, report: value, shard: parseShard(value.options.shard) }
  } catch {
    return `${path}: unreadable shard "${value.options.shard}"`
  }
}

/**
 * Reads the reports in `dirs` and checks they are the shards of one sweep:
 * one strategy, seed, budget, depth and strength, one shard count n, and shards 1..n each
 * exactly once. Rejects with an `InputError` saying what does not fit.
 */
export async function readShardSet(dirs: readonly string[]): Promise<ShardSet> {
  const read = await Promise.all(dirs.map(readShard))
  const problems = read.filter((entry): entry is string => typeof entry === 'string')
  if (problems.length > 0) throw new InputError(problems)
  const shards = (read as ShardReport[]).slice().sort((a, b) => a.shard.index - b.shard.index)
  const first = shards[0]!
  for (const other of shards.slice(1)) {
    for (const key of ['strategy', 'seed', 'budget', 'depth', 'strength', 'hosts'] as const) {
      if (JSON.stringify(other.report.options[key] ?? null) !== JSON.stringify(first.report.options[key] ?? null)) {
        throw new InputError([`${first.dir} and ${other.dir} differ in ${key} (${JSON.stringify(first.report.options[key])} vs ${JSON.stringify(other.report.options[key])}): shards of one sweep share strategy, seed, budget, depth, strength and hosts`])
      }
    }
    if (other.shard.count !== first.shard.count) {
      throw new InputError([`${first.dir} is a shard of ${first.shard.count} but ${other.dir} is a shard of ${other.shard.count}`])
    }
  }
  const count = first.shard.count
  for (let index = 1; index <= count; index++) {
    const holders = shards.filter(entry => entry.shard.index === index)
    if (holders.length === 0) throw new InputError([`shard ${index}/${count} is missing; give the reports of all ${count} shards exactly once`])
    if (holders.length > 1) throw new InputError([`shard ${index}/${count} is given twice (${holders.map(entry => entry.dir).join(' and ')})`])
  }
  const strategy = STRATEGY_NAMES.find(name => name === first.report.options.strategy)
  if (strategy === undefined) throw new InputError([`${first.dir}: unknown strategy "${first.report.options.strategy}"`])
  const { seed, budget, depth, strength } = first.report.options
  return { strategy, seed, budget, depth: depth ?? undefined, strength: strength ?? undefined, shards }
}

/** A scenario's entries across the shards: the same name, variant and target. */
export interface ScenarioAcrossShards {
  /** The entry of each shard that has it, in shard order. */
  entries: ScenarioReport[]
  /** Whether every shard has it and every shard's sweep completed. */
  finished: boolean
}

/** Groups the scenario entries of all shards by name, variant and target, in order of first appearance. */
export function scenariosAcross(set: ShardSet): ScenarioAcrossShards[] {
  const groups = new Map<string, ScenarioReport[]>()
  for (const { report } of set.shards) {
    for (const entry of report.scenarios) {
      const key = `${entry.name}@${entry.variant}+${entry.target}`
      groups.set(key, [...(groups.get(key) ?? []), entry])
    }
  }
  const complete = set.shards.every(shard => shard.report.complete)
  return [...groups.values()].map(entries => ({ entries, finished: complete && entries.length === set.shards.length }))
}

/**
 * The union of the shards' outputs by hash: counts summed, and of each
 * output the lowest exploration position with its token and tools.
 * Ordered by that position, as an unsharded exploration orders them.
 */
export function unionOutputs(entries: readonly ScenarioReport[]): ReportOutput[] {
  const byHash = new Map<string, ReportOutput>()
  for (const output of entries.flatMap(entry => entry.outputs)) {
    const known = byHash.get(output.hash)
    if (!known) byHash.set(output.hash, { ...output, tools: [...output.tools] })
    else {
      const earlier = output.first < known.first ? output : known
      byHash.set(output.hash, { ...earlier, tools: [...earlier.tools], count: known.count + output.count })
    }
  }
  return [...byHash.values()].sort((a, b) => a.first - b.first)
}
