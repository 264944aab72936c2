/**
 * A failed scenario's first line under its result is the root cause: the
 * first error of its first failing output in boot order, naming the config
 * field when the system's message names one; the errors that follow from it
 * come after. Each scenario below plants one cause the definition names.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { scenarioBlock } from '../../../harness/report/terminal.ts'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { inProcessRunner } from '../../../harness/runners/runner.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)

/** Sweeps `text` as a scenario file of a fresh folder and returns the lines the terminal prints for it. */
async function printed(name: string, text: string): Promise<string[]> {
  const dir = await fixtureDir()
  const scenario = await loadScenario(await dir.write(`${name}.yml`, text))
  const entry = await sweepScenario(scenario, { strategy: 'exhaustive', budget: 24, seed: '0', workers: 1 }, { runner: inProcessRunner() })
  expect(entry.passed).toBe(false)
  return scenarioBlock(entry, name.length)
}

const TWO_TOOLS = `plugins:
  - id: tool-shell
    tools: [bash]
  - id: tool-todo
    tools: [todo_write]
`

describe('the first line of a failed scenario is its root cause', () => {
  it('a toolOrder shape error: the load error, at config.toolOrder, before the service it left missing and the entries that never became active', async () => {
    const lines = await printed('shape', `config:\n  toolOrder: [bash, todo_write]\n${TWO_TOOLS}expect:\n  outcome: completed\n`)
    expect(lines[0]).toMatch(/^✗ {2}shape {2}deterministic \(load-error\)/)
    expect(lines[1]).toMatch(/^ {4}first load error, at config\.toolOrder: "toolOrder must contain the \\"<unlisted-tools>\\" rest entry \(where unlisted tools are inserted\)" \(2 of 2 interleavings, first shape@canonical:[a-z,-]+\)$/)
    expect(lines[2]).toMatch(/^ {4}expected outcome completed, got load-error \(2 of 2 interleavings, first [^)]+\); after it: load error "service \\"systemPrompt\\" is not available after boot"$/)
    expect(lines.slice(3, 5)).toEqual([
      expect.stringMatching(/^ {4}entry tool-shell \(waiting for service: tools\) never became active /),
      expect.stringMatching(/^ {4}entry tool-todo \(waiting for service: tools\) never became active /),
    ])
  }, 60_000)

  it('an entry whose config its plugin rejects: the load error, at that entry\'s config field', async () => {
    const dir = await fixtureDir()
    // A config schema in the Standard Schema form cordis validates with (as schemastery's schemas are).
    await dir.write('strict.mjs', `export const name = 'strict'
export const Config = { '~standard': { version: 1, vendor: 'test', validate: config => typeof config.limit === 'number' ? { value: config } : { issues: [{ message: 'expected a number', path: ['limit'] }] } } }
export function apply() {}
`)
    const lines = await printed('strict', `app: none\nplugins:\n  - id: tool-a\n    tools: [a]\n  - id: strict\n    module: ${JSON.stringify(`${dir.root}/strict.mjs`)}\n    config: { limit: many }\nexpect:\n  outcome: completed\n`)
    expect(lines[1]).toMatch(/^ {4}first load error, at plugins\[1\]\.config\.limit: ".*limit.*" \(2 of 2 interleavings, first [^)]+\)$/)
    expect(lines[2]).toMatch(/^ {4}expected outcome completed, got load-error \(2 of 2 interleavings, first [^)]+\)$/)
    expect(lines[3]).toMatch(/^ {4}entry strict \(its plugin failed to apply/)
  }, 60_000)

  it('a turn error: the first turn error, at config.toolOrder when it names it', async () => {
    const lines = await printed('ghost', `config:\n  toolOrder: [ghost, <unlisted-tools>]\n${TWO_TOOLS}expect:\n  outcome: completed\n`)
    expect(lines[1]).toMatch(/^ {4}first turn error, at config\.toolOrder: "toolOrder lists unregistered tool \\"ghost\\"[^"]*" \(2 of 2 interleavings, first [^)]+\)$/)
    expect(lines[2]).toMatch(/^ {4}expected outcome completed, got turn-error \(2 of 2 interleavings, first [^)]+\)$/)
  }, 60_000)

  it('a load error whose message names no config field is said as it is', async () => {
    const dir = await fixtureDir()
    await dir.write('broken.mjs', 'throw new Error("the disk is on fire")\n')
    const lines = await printed('broken', `app: none\nplugins:\n  - id: tool-a\n    tools: [a]\n  - id: broken\n    module: ${JSON.stringify(`${dir.root}/broken.mjs`)}\nexpect:\n  outcome: completed\n`)
    expect(lines[1]).toMatch(/^ {4}first load error: "importing .*broken\.mjs.* failed: Error: the disk is on fire" \(2 of 2 interleavings, first [^)]+\)$/)
  }, 60_000)
})
