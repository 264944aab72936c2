import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { compareObservations } from '../../harness/compare-targets/compare.ts'
import { observeOutputs } from '../../harness/compare-targets/observe.ts'
import { comparisonRows, renderDiffMarkdown } from '../../harness/compare-targets/render.ts'
import { diffTargets, skippedPairs, type TargetDiffOptions } from '../../harness/compare-targets/run.ts'
import type { TargetDiffReport } from '../../harness/compare-targets/types.ts'
import { writeTargetDiffReport } from '../../harness/compare-targets/write.ts'
import { MATRIX_BUDGET } from '../../harness/matrix/budget.ts'
import { loadScenario, loadScenarios } from '../../harness/scenario/load.ts'
import { inProcessRunner } from '../../harness/sweep/runner.ts'
import { sweepScenario } from '../../harness/sweep/sweep.ts'
import type { VariantName } from '../../src/variants/types.ts'
import { fixtureDir, removeFixtureDirs } from './scenario-fixtures.ts'

const runner = inProcessRunner()
const options: TargetDiffOptions = { strategy: 'auto', budget: MATRIX_BUDGET, seed: '0', runner, workers: 1 }

afterAll(removeFixtureDirs)

/** The observations of one reference sweep of `file` under `variant`. */
async function observed(file: string, variant: VariantName) {
  const scenario = await loadScenario(file)
  const entry = await sweepScenario(scenario, { ...options, variant })
  return observeOutputs(scenario, entry, runner)
}

describe('diff-targets over the bundled scenarios', () => {
  it('finds no difference between the reference and the published dsh packages, and says what it skipped', async () => {
    const scenarios = await loadScenarios(['scenarios'])
    const report = await diffTargets(scenarios, options)
    const differing = report.compared.filter(comparison => comparison.differences.length > 0)
    expect(differing).toEqual([])
    expect(report.complete).toBe(true)
    expect(report.summary.differing).toBe(0)
    // Every scenario is either compared or skipped with a reason, and only dsh ever skips.
    expect(report.compared.length + report.summary.skipped).toBe(scenarios.length)
    expect(new Set(report.skipped.map(pair => pair.target))).toEqual(new Set(['dsh']))
    for (const pair of report.skipped) expect(pair.reason).not.toBe('')
    expect(report.skipped.find(pair => pair.scenario === 'registration-order-policy')?.reason).toContain('canonical policy')
    expect(report.skipped.find(pair => pair.scenario === 'forwarding-stdio-agent')?.reason).toContain('app chain')
    // The comparison covers the misconfigurations and the races, not only the quiet cases.
    const comparedNames = report.compared.map(comparison => comparison.scenario)
    expect(comparedNames).toEqual(expect.arrayContaining(['ci-flake', 'unknown-tool-order-name', 'reserved-tool-name', 'tool-order-empty', 'listeners-non-commuting', 'apply-throws']))
    for (const comparison of report.compared) expect(comparison.explored[1], comparison.scenario).toBe(comparison.explored[0])
  }, 180_000)

  it('skippedPairs asks each target, with the scenario as it would run there', async () => {
    expect(await skippedPairs(await loadScenario('scenarios/ci-flake.yml'))).toEqual([])
    const [pair, ...rest] = await skippedPairs(await loadScenario('scenarios/weights-distinct.yml'))
    expect(rest).toEqual([])
    expect(pair).toMatchObject({ scenario: 'weights-distinct', target: 'dsh', reason: 'the published packages implement only the canonical policy' })
  })
})

describe('compareObservations reports differences', () => {
  it('in the header tool order when the two sides order tools differently', async () => {
    const canonical = await observed('scenarios/ci-flake.yml', 'canonical')
    const status = await observed('scenarios/ci-flake.yml', 'registration-order')
    expect(compareObservations(canonical, canonical)).toEqual([])
    const differences = compareObservations(canonical, status)
    expect(differences.map(difference => difference.aspect)).toEqual(['tools'])
    const [tools] = differences
    // Registration order keeps each plugin's own order (task before list_agents), so neither side's orders occur on the other.
    expect(tools!.left).toEqual([{ value: ['list_agents', 'task', 'todo_write'], token: 'ci-flake@canonical:tool-subagent,tool-todo' }])
    expect(tools!.right.map(seen => seen.value)).toEqual(expect.arrayContaining([['task', 'list_agents', 'todo_write'], ['todo_write', 'task', 'list_agents']]))
    for (const seen of tools!.right) expect(seen.token).toMatch(/^ci-flake@registration-order:/)
  }, 60_000)

  it('in the error messages when the failure text differs', async () => {
    const sorted = await observed('scenarios/unknown-tool-order-name.yml', 'canonical')
    const unsorted = await observed('scenarios/unknown-tool-order-name.yml', 'unsorted-known-names')
    const differences = compareObservations(sorted, unsorted)
    expect(differences.map(difference => difference.aspect)).toEqual(['errors'])
    expect(differences[0]!.right.map(seen => seen.value)).toContainEqual({
      load: [],
      turn: [
        'toolOrder lists unregistered tool "ghost"; known tools: beta, alpha',
        'toolOrder lists unregistered tool "ghost"; known tools: beta, alpha',
      ],
    })
  }, 60_000)

  it('in the outcome and the tools when one side fails to load', async () => {
    const completed = await observed('scenarios/ci-flake.yml', 'canonical')
    const failed = await observed('scenarios/tool-order-empty.yml', 'canonical')
    expect(compareObservations(completed, failed).map(difference => difference.aspect)).toEqual(['tools', 'outcome', 'errors'])
  }, 60_000)

  it('renders a differing comparison with replay commands, and writes both files', async () => {
    const canonical = await observed('scenarios/ci-flake.yml', 'canonical')
    const status = await observed('scenarios/ci-flake.yml', 'registration-order')
    const report: TargetDiffReport = {
      tool: 'loadrace',
      report: 'diff-targets',
      version: '0',
      complete: true,
      options: { strategy: 'auto', seed: '0', budget: MATRIX_BUDGET },
      targets: ['reference', 'dsh'],
      compared: [{ scenario: 'ci-flake', file: 'scenarios/ci-flake.yml', verdicts: ['deterministic', 'divergent'], explored: [2, 2], differences: compareObservations(canonical, status) }],
      skipped: [{ scenario: 'weights-distinct', file: 'scenarios/weights-distinct.yml', target: 'dsh', reason: 'the published packages implement only the canonical policy' }],
      summary: { scenarios: 2, compared: 1, differing: 1, skipped: 1, durationMs: 0 },
    }
    expect(comparisonRows(report)).toEqual([
      ['scenario', 'reference', 'dsh', 'result'],
      ['ci-flake', 'deterministic', 'divergent', 'differs: header tool order'],
    ])
    const markdown = renderDiffMarkdown(report)
    expect(markdown).toContain('## Differences')
    expect(markdown).toContain("npx loadrace replay 'ci-flake@registration-order:")
    expect(markdown).toContain('weights-distinct (dsh): the published packages implement only the canonical policy')
    const dir = await fixtureDir()
    const written = await writeTargetDiffReport(dir.root, report, ['md', 'json'])
    expect(written.map(path => path.slice(dir.root.length))).toEqual(['/diff-targets.md', '/diff-targets.json'])
    expect(JSON.parse(await readFile(join(dir.root, 'diff-targets.json'), 'utf8'))).toEqual(report)
  }, 60_000)
})
