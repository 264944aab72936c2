import { shellQuote, shellWord } from './escape.ts'
import type { Divergence, DivergenceKind } from '../verdict/divergence.ts'
import type { GoldenStatus } from '../goldens/golden.ts'
import type { Report } from './sweep-report.ts'
import type { ScenarioReport } from '../judge/scenario-report.ts'
import type { Verdict } from '../verdict/verdict.ts'
import { contributor } from '../oracle/moved.ts'
import type { PrintedOutput } from '../judge/system-output.ts'
import { findTarget } from '../targets/registry.ts'

/**
 * What every human-facing format says the same way: the wording of results,
 * guarantees and golden states, counts, and the replay command. The renderers
 * only decide layout and escaping.
 */

/** How a scenario ended up in this report. */
export type ScenarioResult = 'passed' | 'failed' | 'skipped'

/** Passed, failed, or skipped (not run for its target). */
export function resultOf(scenario: ScenarioReport): ScenarioResult {
  if (scenario.verdict === 'skipped') return 'skipped'
  return scenario.passed === true ? 'passed' : 'failed'
}

/** How a whole report ended: `incomplete` when interrupted without failures. */
export type ReportStatus = 'passed' | 'failed' | 'incomplete'

/** The emoji for a scenario result or a report status (Markdown; the HTML page uses styled words instead). */
export const STATUS_MARK: Readonly<Record<ScenarioResult | ReportStatus, string>> = {
  passed: '✅',
  failed: '❌',
  skipped: '⏭️',
  incomplete: '⚠️',
}

/** The failed scenarios, in report order. */
export function failedScenarios(report: Report): ScenarioReport[] {
  return report.scenarios.filter((scenario) => resultOf(scenario) === 'failed')
}

/** Counts for a report's headline. */
export type Totals = Report['summary']

/** The headline counts of a report. */
export function totalsOf(report: Report): Totals {
  return report.summary
}

/**
 * The one-line outcome, e.g. `2 failed, 5 passed, 1 skipped of 8 scenarios`
 * or `1 obsolete golden, 7 passed of 7 scenarios`: what failed comes first,
 * and a count of 0 failed is never said.
 */
export function headline(report: Report): string {
  const totals = totalsOf(report)
  const obsolete = report.obsoleteGoldens?.length ?? 0
  const parts: string[] = []
  if (obsolete > 0) parts.push(`${obsolete} obsolete golden${obsolete === 1 ? '' : 's'}`)
  const faults = report.scenarios.filter(scenario => scenario.harnessFault !== undefined).length
  // A harness fault fails the run (exit 3) but is loadrace's, not the system's: said apart.
  if (totals.failed > 0) parts.push(`${totals.failed} failed${faults > 0 ? ` (${faults} by a harness fault: loadrace's, not the system's)` : ''}`)
  parts.push(`${totals.passed} passed`)
  if (totals.skipped > 0) parts.push(`${totals.skipped} skipped`)
  return `${parts.join(', ')} of ${totals.scenarios} scenario${totals.scenarios === 1 ? '' : 's'}`
}

/** Failed when any scenario failed or a golden is obsolete; otherwise passed when complete, incomplete when interrupted. */
export function reportStatus(report: Report): ReportStatus {
  if (report.summary.failed > 0 || (report.obsoleteGoldens?.length ?? 0) > 0) return 'failed'
  return report.complete ? 'passed' : 'incomplete'
}

/** Said wherever a report is incomplete. */
export const INCOMPLETE_NOTICE =
  'Incomplete sweep: the run was interrupted, so this report covers only the interleavings explored before that. ' +
  'No guarantee below holds for the unexplored rest.'

/** What a guarantee promises, in a sentence, for the kinds `strategies/strategy.ts` documents (`exhaustive`, `t-way:N`, `sampled`). */
export function guaranteeMeaning(guarantee: string): string {
  if (guarantee === 'exhaustive') return 'every interleaving of the discovered space ran: the verdict holds for every order the system allows'
  if (guarantee === 'sampled') return 'a sample of interleavings ran: evidence, not proof'
  const tWay = /^t-way:(\d+)$/.exec(guarantee)
  if (tWay !== null) {
    return `every relative order of any ${tWay[1]} operations that the system allows occurred in some explored interleaving`
  }
  return 'unknown guarantee'
}

/** Guarantees present in a report, each once, in order of first use. */
export function guaranteesUsed(report: Report): string[] {
  return [...new Set(report.scenarios.filter((s) => s.skipped === undefined).map((s) => s.guarantee))]
}

/** `explored / space`, e.g. `24 / 24`, with the planned count when runs collapsed onto the same effective order (`2 / 3, 3 planned`). */
export function coverage(scenario: ScenarioReport): string {
  const planned = scenario.planned !== scenario.explored ? `, ${scenario.planned} planned` : ''
  return `${scenario.explored} / ${scenario.space}${planned}`
}

/** What the scenario expected, e.g. `completed, deterministic`. */
export function expectation(scenario: ScenarioReport): string {
  const determinism = scenario.expected.deterministic ? 'deterministic' : 'may diverge'
  return `${scenario.expected.outcome}, ${determinism}`
}

/** What each verdict means, in a sentence. */
export const VERDICT_MEANING: Readonly<Record<Verdict, string>> = {
  deterministic: 'every explored interleaving produced the same bytes',
  divergent: 'explored interleavings produced different bytes',
  uncontrolled: 'one interleaving run twice produced different bytes: a source the scheduler does not control (clock, randomness, I/O), varying with loadrace\'s control of timers and clocks off too',
  'harness-fault': 'one interleaving run twice produced different bytes only under loadrace\'s control: loadrace failed to hold a timer, clock, process or socket; not a verdict about the system (exit 3)',
  'host-dependent': 'the same interleaving gave different bytes on two hosts (Node runtime, locale or time zone): a host dependence, not an order bug',
  stuck: 'an interleaving never settled: a plugin load or the turn never finished',
  skipped: 'the scenario did not run: its target cannot run it, or this machine lacks what it requires',
  error: 'the harness could not run the scenario',
}

/** The verdict with the agreed outcome, e.g. `deterministic (completed)`. */
export function verdictText(scenario: ScenarioReport): string {
  return `${scenario.verdict} (${scenario.outcome})`
}

/** The emoji for a golden state (none for `none`, which shows as a dash). */
export const GOLDEN_MARK: Readonly<Record<GoldenStatus, string>> = {
  match: '✅',
  mismatch: '❌',
  written: '📝',
  missing: '⚠️',
  withheld: '⏸️',
  none: '',
}

/** `did not write golden goldens/x.json: why`, for a scenario whose golden was withheld; undefined otherwise. */
export function goldenWithheldSentence(scenario: ScenarioReport): string | undefined {
  if (scenario.golden !== 'withheld' || scenario.goldenFile === undefined) return undefined
  return `did not write golden ${scenario.goldenFile}: ${scenario.goldenWithheld ?? 'the scenario did not meet its expectation'}`
}

/** Where a scenario's row comes from: `target · variant`. */
export function placeOf(scenario: ScenarioReport): string {
  return `${scenario.target} · ${scenario.variant}`
}

/**
 * The shell command that replays one interleaving of the scenario in `file`
 * (the path as the sweep was given it): it works from the directory the sweep
 * ran in, wherever the scenario file is.
 */
export function replayCommand(token: string, file: string): string {
  return `npx loadrace replay ${shellQuote(token)} --scenarios ${shellWord(file)}`
}

/** What the divergence kind means, for the sentence naming the blame pair. */
export const KIND_MEANING: Readonly<Record<DivergenceKind, string>> = {
  order: 'the same elements in another order',
  content: 'different content',
}

/** Milliseconds as a short human duration: `840 ms`, `3.2 s`, `4 min 12 s`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—'
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  const seconds = Math.round(ms / 1000)
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`
}

/** The run options in one line, e.g. `strategy exhaustive · seed 42 · budget 1000 · 4 workers`. */
export function optionsLine(report: Report): string {
  const { strategy, seed, budget, shard, workers } = report.options
  const parts = [`strategy ${strategy}`, `seed ${seed}`, `budget ${budget}`]
  if (shard !== null) parts.push(`shard ${shard}`)
  parts.push(`${workers} worker${workers === 1 ? '' : 's'}`, `${report.tool} ${report.version}`)
  return parts.join(' · ')
}

/** Said wherever a report covers one shard only. */
export function shardNotice(report: Report): string | undefined {
  const shard = report.options.shard
  if (shard === null) return undefined
  return `This is shard ${shard}: guarantees hold for the whole space only when every shard passes.`
}

/** Keeps the first `maxLines` lines of `text`; reports how many were left out. */
export function firstLines(text: string, maxLines: number): { text: string, omitted: number } {
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  if (lines.length <= maxLines) return { text, omitted: 0 }
  return { text: `${lines.slice(0, maxLines).join('\n')}\n`, omitted: lines.length - maxLines }
}

/** Who is to blame, in a sentence: `Swapping a and b changes the request: the same elements in another order.` */
export function blameSentence(divergence: Divergence): string {
  const [a, b] = divergence.blame
  return `Swapping ${a} and ${b} changes the ${divergence.part}: ${KIND_MEANING[divergence.kind]}.`
}

/** What moved and whose it is, in a sentence: `Moved: section tool:workflow (tool-workflow), section tool:cordis (tool-cordis).`; undefined when nothing attributable moved. */
export function movedSentence(divergence: Divergence): string | undefined {
  if (divergence.moved.length === 0) return undefined
  return `Moved: ${divergence.moved.map(item => `${item.kind} ${item.name} (${contributor(item)})`).join(', ')}.`
}

/** `Inactive in some interleavings only: p-a (12 of 24), p-b (12 of 24).`; undefined when every entry is active in all or none of them. */
export function partlyInactiveSentence(divergence: Divergence): string | undefined {
  const partly = divergence.partlyInactive ?? []
  if (partly.length === 0) return undefined
  return `Inactive in some interleavings only: ${partly.map(entry => `${entry.id} (${entry.inactive} of ${entry.of})`).join(', ')}.`
}

/** The lines of what the system printed, each prefixed with whose code printed it on which stream: `talk/stderr | warning`. */
export function printedLines(printed: PrintedOutput): string[] {
  return printed.chunks.flatMap((chunk) => {
    const lines = chunk.text.split('\n')
    if (lines.at(-1) === '') lines.pop()
    return lines.map(line => `${chunk.entry ?? '(base)'}/${chunk.stream} | ${line}`)
  })
}

/** At most this many interleavings are named in the heading of one printed output. */
const MAX_PRINTERS_NAMED = 3

/** `output of the system in a@…, b@… and 2 more interleavings:` — the heading of one printed output. */
export function printedHeading(printed: PrintedOutput): string {
  const named = printed.interleavings.slice(0, MAX_PRINTERS_NAMED)
  const more = printed.interleavings.length - named.length
  return `output of the system in ${named.join(', ')}${more > 0 ? ` and ${more} more interleaving${more === 1 ? '' : 's'}` : ''}:`
}

/** `(N more characters were printed and not kept)`, when an interleaving printed more than it keeps. */
export function printedOmission(printed: PrintedOutput): string | undefined {
  return printed.omitted > 0 ? `(${printed.omitted} more characters were printed and not kept)` : undefined
}

/**
 * Which Node a scenario ran on, e.g. `ran on Node v22.23.5 (host node22)`,
 * and what the target had to supply to it; undefined when the report does
 * not know (a skipped scenario).
 */
export function runtimeSentence(scenario: ScenarioReport): string | undefined {
  const runtime = scenario.runtime
  if (runtime === undefined) return undefined
  const [first, ...others] = scenario.hosts
  const hosts = `host ${first ?? 'current'}${others.length > 0 ? `; also on ${others.join(', ')}` : ''}`
  const supplied = runtime.shims.length === 0 ? '' : `, supplying ${runtime.shims.join(', ')}`
  const preferred = findTarget(scenario.target)?.preferredHost
  const onPreferred = preferred !== undefined && scenario.hosts.some(host => host.split('+').includes(preferred.name))
  const advice = preferred !== undefined && runtime.shims.length > 0 && !onPreferred ? `: ${preferred.advice}` : ''
  return `ran on Node ${runtime.node} (${hosts})${supplied}${advice}`
}

/** The facts of one scenario run, each a short phrase, for a section's byline. */
export function scenarioFacts(scenario: ScenarioReport): string[] {
  const outputs = scenario.distinctOutputs
  const method = scenario.strategy === scenario.guarantee ? scenario.strategy : `${scenario.strategy}, ${scenario.guarantee}`
  return [
    scenario.file,
    `${scenario.plugins} plugin${scenario.plugins === 1 ? '' : 's'}`,
    `${coverage(scenario)} interleavings explored (${method})`,
    ...scenario.discovered.length > 0 ? [`discovered by running it: ${scenario.discovered.join(', ')}`] : [],
    ...scenario.coverage ? [`${scenario.coverage.realised} of ${scenario.coverage.total} ${scenario.coverage.strength}-orders realised`] : [],
    ...scenario.deviations ? [`${scenario.deviations.count} run${scenario.deviations.count === 1 ? '' : 's'} left the discovered space (${scenario.deviations.reason}; ${scenario.deviations.token})`] : [],
    `${outputs} distinct output${outputs === 1 ? '' : 's'}`,
    ...scenario.runtime === undefined ? [] : [runtimeSentence(scenario)!],
    formatDuration(scenario.durationMs),
  ]
}

/** At most this many outputs are listed per scenario; the rest are counted. */
export const MAX_OUTPUTS_LISTED = 20

/** An output's hash shortened for display. */
export function shortHash(hash: string): string {
  return hash.slice(0, 12)
}

/** One interleaving worth replaying, with what it is. */
export interface ReplayTarget {
  label: string
  token: string
}

/**
 * The interleavings to replay for a scenario: both sides of the blame swap
 * when there is a divergence, otherwise the first interleaving of each listed
 * output.
 */
export function replayTargets(scenario: ScenarioReport): ReplayTarget[] {
  if (scenario.divergence !== null) {
    const [before, after] = scenario.divergence.tokens
    return [{ label: 'before the swap', token: before }, { label: 'after the swap', token: after }]
  }
  return scenario.outputs.slice(0, MAX_OUTPUTS_LISTED).map((output, index) => ({
    label: `output ${index + 1} (${shortHash(output.hash)}, ${output.count} interleaving${output.count === 1 ? '' : 's'})`,
    token: output.token,
  }))
}
