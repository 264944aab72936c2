import type { Scenario } from '../scenario/scenario.ts'
import type { Exploration } from '../explore/exploration.ts'
import type { RunCache } from '../runners/run-cache.ts'
import { replayableSchedule, type InterleavingRecord } from '../runners/runner.ts'
import type { OutputChunk } from '../runtime/output-capture.ts'
import { parseToken, tokenOf } from '../token.ts'
import type { Analysis } from '../verdict/verdict.ts'

/**
 * What the system printed in the interleavings a scenario's report names —
 * the first of each distinct output, both sides of a divergence — once per
 * distinct text, with the interleavings that printed it. Never part of the
 * verdict: printing is no model-facing byte.
 */
export interface PrintedOutput {
  /** Replay tokens of the named interleavings that printed exactly this. */
  interleavings: string[]
  chunks: OutputChunk[]
  /** Characters printed beyond what an interleaving keeps. */
  omitted: number
}

/** The interleavings the report names, in the order it names them: each output's first, then the divergence's two sides. */
function namedRecords(exploration: Exploration, analysis: Analysis, cache: RunCache | undefined): InterleavingRecord[] {
  const records = exploration.outputs.map(group => group.first)
  if (analysis.verdict === 'divergent' && analysis.divergence !== null && cache !== undefined) {
    for (const token of analysis.divergence.tokens) {
      const record = cache.recorded(parseToken(token).schedule)
      if (record !== undefined) records.push(record)
    }
  }
  return records
}

/** What the named interleavings printed, once per distinct text; empty when none printed anything. */
export function printedOutputs(scenario: Scenario, exploration: Exploration, analysis: Analysis, cache?: RunCache): PrintedOutput[] {
  const byText = new Map<string, PrintedOutput>()
  for (const record of namedRecords(exploration, analysis, cache)) {
    const output = record.systemOutput
    if (output === undefined) continue
    const token = tokenOf(scenario, replayableSchedule(record))
    const key = JSON.stringify(output)
    const known = byText.get(key)
    if (known === undefined) byText.set(key, { interleavings: [token], chunks: output.chunks.map(chunk => ({ ...chunk })), omitted: output.omitted })
    else if (!known.interleavings.includes(token)) known.interleavings.push(token)
  }
  return [...byText.values()]
}
