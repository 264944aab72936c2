import type { Divergence } from '../verdict/divergence.ts'
import type { Report } from './sweep-report.ts'
import type { ReportOutput, ScenarioReport } from '../judge/scenario-report.ts'
import type { HarnessFault, OrderOnlyReruns, UncontrolledReplay, HostDifference } from '../verdict/verdict.ts'
import type { RanOn } from '../system/system.ts'
import type { SnapshotFinding, SnapshotSide } from '../judge/snapshot.ts'

/**
 * `report.json`: the machine contract. Every object is rebuilt field by field
 * in the order its type declares: `Report`, its options and summary in
 * `sweep-report.ts`, `ScenarioReport` and `ReportOutput` in
 * `judge/scenario-report.ts`, and each type they hold where it is declared
 * (`verdict/`, `judge/snapshot.ts`, `system/system.ts`), so two reports with
 * equal content serialise to equal bytes however they were put together.
 */

function canonicalSide(side: SnapshotSide): SnapshotSide {
  return { interleavings: side.interleavings, outputs: side.outputs, ...side.token === undefined ? {} : { token: side.token } }
}

function canonicalSnapshot(finding: SnapshotFinding): SnapshotFinding {
  return {
    folder: finding.folder,
    status: finding.status,
    expected: finding.expected,
    matching: canonicalSide(finding.matching),
    mismatching: canonicalSide(finding.mismatching),
    ...finding.differs === undefined ? {} : { differs: finding.differs.map(({ file, diff }) => ({ file, diff })) },
    ...finding.blame === undefined ? {} : { blame: [finding.blame[0], finding.blame[1]] },
    ...finding.tokens === undefined ? {} : { tokens: [finding.tokens[0], finding.tokens[1]] },
    ...finding.moved === undefined ? {} : { moved: finding.moved.map(({ kind, name, owner, plugin }) => ({ kind, name, owner, ...plugin === undefined ? {} : { plugin } })) },
    ...finding.sections === undefined ? {} : { sections: finding.sections },
    ...finding.fix === undefined ? {} : { fix: finding.fix },
  }
}

function canonicalRuntime(runtime: RanOn): RanOn {
  return {
    node: runtime.node,
    shims: [...runtime.shims],
    ...runtime.system === undefined ? {} : { system: { own: runtime.system.own, packages: runtime.system.packages.map(({ name, version, path }) => ({ name, version, path })) } },
  }
}

function canonicalOutput(output: ReportOutput): ReportOutput {
  return { hash: output.hash, count: output.count, first: output.first, token: output.token, tools: [...output.tools] }
}

function canonicalDivergence(divergence: Divergence): Divergence {
  return {
    part: divergence.part,
    kind: divergence.kind,
    blame: [divergence.blame[0], divergence.blame[1]],
    tokens: [divergence.tokens[0], divergence.tokens[1]],
    diff: divergence.diff,
    firstDifference: divergence.firstDifference,
    moved: divergence.moved.map(({ kind, name, owner, plugin }) => ({ kind, name, owner, ...plugin === undefined ? {} : { plugin } })),
    ...divergence.sections === undefined ? {} : { sections: divergence.sections },
    ...divergence.partlyInactive === undefined ? {} : { partlyInactive: divergence.partlyInactive.map(({ id, inactive, of }) => ({ id, inactive, of })) },
    swaps: {
      plugins: [...divergence.swaps.plugins],
      changed: divergence.swaps.changed.map(([a, b]): [string, string] => [a, b]),
    },
  }
}

function canonicalOrderOnly(reruns: OrderOnlyReruns): OrderOnlyReruns {
  return {
    hashes: [...reruns.hashes],
    agree: reruns.agree,
    ...reruns.timedOut === true ? { timedOut: true as const } : {},
    ...reruns.controlledAfter === undefined ? {} : { controlledAfter: reruns.controlledAfter },
  }
}

function canonicalUncontrolled(replay: UncontrolledReplay): UncontrolledReplay {
  return {
    token: replay.token,
    hashes: [replay.hashes[0], replay.hashes[1]],
    part: replay.part,
    diff: replay.diff,
    ...replay.firstDifference === undefined ? {} : { firstDifference: replay.firstDifference },
    ...replay.endings === undefined ? {} : { endings: [replay.endings[0], replay.endings[1]] },
    ...replay.orderOnly === undefined ? {} : { orderOnly: canonicalOrderOnly(replay.orderOnly) },
  }
}

function canonicalHarnessFault(fault: HarnessFault): HarnessFault {
  return {
    token: fault.token,
    resource: fault.resource,
    controlled: [fault.controlled[0], fault.controlled[1]],
    orderOnly: canonicalOrderOnly(fault.orderOnly),
    part: fault.part,
    diff: fault.diff,
    ...fault.firstDifference === undefined ? {} : { firstDifference: fault.firstDifference },
    ...fault.endings === undefined ? {} : { endings: [fault.endings[0], fault.endings[1]] },
  }
}

function canonicalHostDifference(difference: HostDifference): HostDifference {
  return {
    hosts: [difference.hosts[0], difference.hosts[1]],
    hashes: [difference.hashes[0], difference.hashes[1]],
    tokens: [difference.tokens[0], difference.tokens[1]],
    part: difference.part,
    diff: difference.diff,
  }
}

function canonicalScenario(scenario: ScenarioReport, durationMs: number): ScenarioReport {
  return {
    name: scenario.name,
    file: scenario.file,
    variant: scenario.variant,
    target: scenario.target,
    plugins: scenario.plugins,
    space: scenario.space,
    discovered: [...scenario.discovered],
    planned: scenario.planned,
    explored: scenario.explored,
    ...(scenario.coverage === undefined ? {} : { coverage: { ...scenario.coverage } }),
    ...(scenario.deviations === undefined ? {} : { deviations: { ...scenario.deviations } }),
    ...(scenario.orders === undefined ? {} : { orders: [...scenario.orders] }),
    strategy: scenario.strategy,
    guarantee: scenario.guarantee,
    verdict: scenario.verdict,
    ...(scenario.passed === undefined ? {} : { passed: scenario.passed }),
    outcome: scenario.outcome,
    distinctOutputs: scenario.distinctOutputs,
    outputs: scenario.outputs.map(canonicalOutput),
    divergence: scenario.divergence === null ? null : canonicalDivergence(scenario.divergence),
    ...(scenario.uncontrolled === undefined ? {} : { uncontrolled: canonicalUncontrolled(scenario.uncontrolled) }),
    ...(scenario.harnessFault === undefined ? {} : { harnessFault: canonicalHarnessFault(scenario.harnessFault) }),
    hosts: [...scenario.hosts],
    ...(scenario.runtime === undefined ? {} : { runtime: canonicalRuntime(scenario.runtime) }),
    ...(scenario.hostDifference === undefined ? {} : { hostDifference: canonicalHostDifference(scenario.hostDifference) }),
    ...(scenario.snapshot === undefined ? {} : { snapshot: canonicalSnapshot(scenario.snapshot) }),
    golden: scenario.golden,
    expected: { outcome: scenario.expected.outcome, deterministic: scenario.expected.deterministic },
    problems: [...scenario.problems],
    ...(scenario.goldenFile === undefined ? {} : { goldenFile: scenario.goldenFile }),
    ...(scenario.goldenDiff === undefined ? {} : { goldenDiff: scenario.goldenDiff }),
    ...(scenario.goldenWithheld === undefined ? {} : { goldenWithheld: scenario.goldenWithheld }),
    ...(scenario.skipped === undefined ? {} : { skipped: scenario.skipped }),
    ...(scenario.emptyShard === undefined ? {} : { emptyShard: scenario.emptyShard }),
    ...(scenario.error === undefined ? {} : { error: scenario.error }),
    ...(scenario.systemOutput === undefined ? {} : {
      systemOutput: scenario.systemOutput.map(printed => ({
        interleavings: [...printed.interleavings],
        chunks: printed.chunks.map(({ stream, entry, text }) => ({ stream, entry, text })),
        omitted: printed.omitted,
      })),
    }),
    durationMs,
  }
}

/** A deep copy of `report` in declared key order; `zeroTimings` sets every `durationMs` to 0. */
function canonicalReport(report: Report, zeroTimings: boolean): Report {
  const { options, summary } = report
  return {
    tool: report.tool,
    report: 'sweep',
    version: report.version,
    complete: report.complete,
    options: {
      strategy: options.strategy,
      seed: options.seed,
      budget: options.budget,
      depth: options.depth,
      strength: options.strength,
      shard: options.shard,
      workers: options.workers,
      hosts: options.hosts === null ? null : [...options.hosts],
    },
    scenarios: report.scenarios.map((scenario) => canonicalScenario(scenario, zeroTimings ? 0 : scenario.durationMs)),
    ...report.obsoleteGoldens ? { obsoleteGoldens: [...report.obsoleteGoldens] } : {},
    summary: {
      scenarios: summary.scenarios,
      passed: summary.passed,
      failed: summary.failed,
      skipped: summary.skipped,
      interleavings: summary.interleavings,
      durationMs: zeroTimings ? 0 : summary.durationMs,
    },
  }
}

/** The report as pretty JSON (2-space indent, trailing newline), keys in declared order. */
export function renderJson(report: Report): string {
  return `${JSON.stringify(canonicalReport(report, false), null, 2)}\n`
}

/** A copy of the report with every timing (`durationMs` of scenarios and summary) set to 0, for comparing runs. */
export function stripTimings(report: Report): Report {
  return canonicalReport(report, true)
}
