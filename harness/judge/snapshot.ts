/**
 * dsh's snapshot suite as the oracle: every explored output of an
 * application is laid out as dsh's snapshot harness writes its pinned files
 * (`tool-schemas.expected.json`, `system-prompt.expected.md`) and compared with
 * them byte for byte. A snapshot `holds` when every output gives the pinned
 * files; it `pins-one` when some do and others do not — it passes on a
 * machine whose imports settle one way and fails where they settle the other;
 * it `matches-none` when no output gives them. For a snapshot that pins one,
 * the finding names the two loader entries whose swap turns one into the
 * other, both replay tokens, the prompt's sections in the pinned order against
 * the other one, and the fix.
 */
import { basename, dirname, relative } from 'node:path'
import type { Scenario, SnapshotStatus } from '../scenario/scenario.ts'
import type { Exploration, OutputGroup } from '../explore/exploration.ts'
import type { RunCache } from '../runners/run-cache.ts'
import { replayableSchedule } from '../runners/runner.ts'
import { parseProjection } from '../projection/projection.ts'
import { unifiedDiff } from '../oracle/diff.ts'
import { contributor, type MovedContribution } from '../oracle/moved.ts'
import type { SnapshotPins, TargetSnapshots } from '../targets/definition.ts'
import { targetNamed } from '../targets/registry.ts'
import { tokenOf } from '../token.ts'
import { counterexample } from './analyse.ts'

/** The interleavings on one side of a snapshot: how many, in how many distinct outputs, and the first one's replay token. */
export interface SnapshotSide {
  interleavings: number
  outputs: number
  /** Replay token of the first interleaving on this side; absent when there is none. */
  token?: string
}

/** What comparing the explored outputs with a snapshot's pinned files found. */
export interface SnapshotFinding {
  /** The snapshot folder, as the sweep's working directory sees it. */
  folder: string
  status: SnapshotStatus
  /** What the scenario expects (`expect.snapshot`; `holds` unless it says otherwise). */
  expected: SnapshotStatus
  /** The interleavings whose output gives the pinned files byte for byte, and those whose output does not. */
  matching: SnapshotSide
  mismatching: SnapshotSide
  /** Which pinned files the first mismatching output does not give, and the diff from each pinned file to it. */
  differs?: { file: string, diff: string }[]
  /** For `pins-one`: the two loader entries whose swap turns a matching interleaving into a mismatching one, and the two tokens. */
  blame?: [string, string]
  tokens?: [string, string]
  /** The prompt sections and tools whose order differs between the two, named by who registered them. */
  moved?: MovedContribution[]
  /** The system prompt's sections in the pinned order (the matching side) against the other side, one line each. */
  sections?: string
  /** How to make the snapshot hold, when the finding says. */
  fix?: string
}

/** Whether an output gives the pinned files, and which ones it does not: a file of the snapshot's own by its name, its class pin's as `PIN/file`. */
function compare(group: OutputGroup, pins: SnapshotPins, folder: string, snapshots: TargetSnapshots): { file: string, diff: string }[] {
  return snapshots.pinDifferences(parseProjection(group.json).events, pins).map((item) => {
    const path = pins[item.file].path
    const file = dirname(path) === folder ? basename(path) : relative(dirname(folder), path)
    return { file, diff: unifiedDiff(`${file} (pinned)`, `${file} (this interleaving)`, item.pinned, item.logged) }
  })
}

function side(scenario: Scenario, groups: readonly OutputGroup[]): SnapshotSide {
  const first = [...groups].sort((a, b) => a.first.index - b.first.index)[0]
  return {
    interleavings: groups.reduce((total, group) => total + group.count, 0),
    outputs: groups.length,
    ...first === undefined ? {} : { token: tokenOf(scenario, replayableSchedule(first.first)) },
  }
}

/** What to do, from what moved: sections of equal order that swapped, or tools, or the output itself. */
function fixOf(moved: readonly MovedContribution[], orders: ReadonlyMap<string, number | undefined>): string {
  const sections = moved.filter(item => item.kind === 'section')
  const tied = new Map<number, MovedContribution[]>()
  for (const section of sections) {
    const order = orders.get(section.name)
    if (order !== undefined) tied.set(order, [...tied.get(order) ?? [], section])
  }
  const ties = [...tied.entries()].filter(([, group]) => group.length >= 2)
  if (ties.length > 0) {
    const [order, group] = ties[0]!
    return `give ${group.map(item => `${item.name} (${contributor(item)})`).join(' and ')} distinct order values: both are order ${order}, and sections of equal order keep registration order, which the import race decides`
  }
  if (moved.some(item => item.kind === 'tool')) return 'make the tool order a decision of the assembly (a toolOrder, or the canonical order) rather than of registration order'
  return 'make what the model sees independent of the order in which the plugins load'
}

/**
 * Compares every explored output of `scenario` with its snapshot's pinned
 * files. For a snapshot that pins one output, minimises a matching and a
 * mismatching interleaving to one adjacent swap.
 */
export async function judgeSnapshot(scenario: Scenario, exploration: Exploration, cache: RunCache): Promise<SnapshotFinding | undefined> {
  const folder = scenario.snapshot
  if (folder === undefined) return undefined
  const snapshots = targetNamed(scenario.target).snapshots
  if (snapshots === undefined) return undefined
  const pins = snapshots.pins(folder, scenario.pinned)
  const compared = exploration.outputs.map(group => ({ group, differs: compare(group, pins, folder, snapshots) }))
  const matching = compared.filter(item => item.differs.length === 0).map(item => item.group)
  const mismatching = compared.filter(item => item.differs.length > 0)
  const status: SnapshotStatus = mismatching.length === 0 ? 'holds' : matching.length === 0 ? 'matches-none' : 'pins-one'
  const finding: SnapshotFinding = {
    folder: relative(process.cwd(), folder) || '.',
    status,
    expected: scenario.expect.snapshot ?? 'holds',
    matching: side(scenario, matching),
    mismatching: side(scenario, mismatching.map(item => item.group)),
    ...mismatching.length > 0 ? { differs: mismatching[0]!.differs } : {},
  }
  if (status !== 'pins-one') return finding
  const pinnedSide = matching[0]!
  const otherSide = mismatching[0]!.group
  // The cache remembers runs, so a pair the analysis minimised already costs nothing again.
  const pair = await counterexample(scenario, exploration, pinnedSide, otherSide, cache)
  // Nondeterminism that moved a replay leaves no order to blame: the analysis says uncontrolled.
  if ('uncontrolled' in pair) return finding
  const orders = new Map((pinnedSide.first.contributions?.sections ?? []).map(section => [section.name, section.order]))
  return {
    ...finding,
    blame: pair.blame,
    tokens: pair.tokens,
    moved: pair.moved,
    ...pair.sections === undefined ? {} : { sections: pair.sections.replace('--- before the swap', '--- pinned').replace('+++ after the swap', '+++ the other load order') },
    fix: fixOf(pair.moved, orders),
  }
}

/** The problem line when the snapshot is not what the scenario expects; undefined when it is. */
export function snapshotProblem(finding: SnapshotFinding, options: { shard?: boolean } = {}): string | undefined {
  if (finding.status === finding.expected) return undefined
  // A shard may hold one side of the race only: whether the snapshot pins one order is for the merge of all shards to say.
  if (options.shard === true && finding.expected === 'pins-one' && finding.status !== 'pins-one') return undefined
  const { matching, mismatching } = finding
  const counts = `${matching.interleavings} of ${matching.interleavings + mismatching.interleavings} interleavings give the pinned files`
  const said: Record<SnapshotStatus, string> = {
    'holds': 'holds (every interleaving gives the pinned files)',
    'pins-one': `pins one load order (${counts}; it will flake on a machine whose imports settle the other way)`,
    'matches-none': `matches none (${counts}: the pinned files are out of date, or record another configuration)`,
  }
  return `snapshot ${finding.folder}: expected it to ${finding.expected === 'holds' ? 'hold' : finding.expected === 'pins-one' ? 'pin one load order' : 'match none'}, but it ${said[finding.status]}`
}
