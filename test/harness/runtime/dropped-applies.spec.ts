/**
 * One verdict for a hang. Cordis awaits the promise of an `async` (or arrow,
 * or method-shorthand) `apply`, so a boot whose `apply` never settles waits
 * forever — dsh's own boot too: stuck. It constructs a plain `function` with
 * `new` and drops the promise it returns; loadrace's boot waits for that
 * promise as well, so the same defect in either shape is `stuck`, never
 * silently green.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { inProcessRunner, type Runner } from '../../../harness/runners/runner.ts'
import { workerPool } from '../../../harness/runners/worker-pool.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)

const OPTIONS = { strategy: 'exhaustive' as const, budget: 720, seed: '0', workers: 1 }

/** Plugin modules whose `apply` never settles, one per shape cordis distinguishes. */
const NEVER_SETTLING: Record<string, string> = {
  'a plain exported function (constructed, its promise dropped)': 'export function apply() { return new Promise(() => {}) }\n',
  'a plain default-export function (constructed, its promise dropped)': 'export default function hang() { return new Promise(() => {}) }\n',
  'a plain function as an object\'s apply (constructed, its promise dropped)': 'export default { name: \'hang\', apply: function () { return new Promise(() => {}) } }\n',
  'an exported async function (awaited)': 'export async function apply() { await new Promise(() => {}) }\n',
  'a method shorthand (awaited)': 'export default { name: \'hang\', apply() { return new Promise(() => {}) } }\n',
}

/** The scenario: an ordinary tool plugin beside `hang`, expected to complete. */
function beside(hang: string): string {
  return `name: hangs
app: none
plugins:
  - id: tool-a
    tools: [a]
  - id: hang
    ${hang}
expect:
  outcome: completed
`
}

async function sweepWith(files: Record<string, string>, runner: Runner) {
  const dir = await fixtureDir()
  for (const [name, text] of Object.entries(files)) await dir.write(name, text)
  const report = await sweepScenario(await loadScenario(`${dir.root}/s.yml`), OPTIONS, { runner })
  await runner.close()
  return report
}

const RUNNERS: [string, () => Runner][] = [['in process', () => inProcessRunner()], ['on worker threads', () => workerPool({ size: 2 })]]

describe.each(RUNNERS)('an apply that never settles is stuck, whatever its shape (%s)', (_, makeRunner) => {
  it.each(Object.entries(NEVER_SETTLING))('%s', async (_shape, module) => {
    const report = await sweepWith({ 'hang.mjs': module, 's.yml': beside('module: ./hang.mjs') }, makeRunner())
    expect(report.verdict).toBe('stuck')
    expect(report.outcome).toBe('stuck')
    expect(report.passed).toBe(false)
    expect(report.problems[0]).toMatch(/^interleaving hangs@canonical:(tool-a,hang|hang,tool-a) is stuck \(no-progress during boot; waiting for hang\)$/)
  })

  it('as the synthetic fault apply-hangs is', async () => {
    const report = await sweepWith({ 's.yml': beside('tools: [h]\n    fault: apply-hangs') }, makeRunner())
    expect(report.verdict).toBe('stuck')
    expect(report.problems[0]).toMatch(/is stuck \(no-progress during boot; waiting for hang\)$/)
  })

  it('a dropped promise that settles after a timer settles before the turns: its tool is in the header, its timer a scheduling point', async () => {
    const late = `export const inject = ['tools']
export function apply(ctx) {
  return new Promise(resolve => setTimeout(resolve, 50)).then(() => {
    ctx.tools.register({ name: 'late', description: 'registered after a timer', parameters: { type: 'object', properties: {} } })
  })
}
`
    const report = await sweepWith({ 'late.mjs': late, 's.yml': beside('module: ./late.mjs') }, makeRunner())
    expect(report.verdict).toBe('deterministic')
    expect(report.outputs.map(output => output.tools)).toEqual([['a', 'late']])
    expect(report.discovered).toEqual(['hang#timer1'])
    expect(report.passed).toBe(true)
  })

  it('a class plugin, and a plain function that returns nothing, are untouched', async () => {
    const plugins = {
      'class.mjs': 'export default class Registers { static inject = [\'tools\']; constructor(ctx) { ctx.tools.register({ name: \'from_class\', description: \'d\', parameters: { type: \'object\', properties: {} } }) } }\n',
      'plain.mjs': 'export const inject = [\'tools\']\nexport function apply(ctx) { ctx.tools.register({ name: \'from_plain\', description: \'d\', parameters: { type: \'object\', properties: {} } }) }\n',
      's.yml': beside('module: ./class.mjs').replace('expect:', '  - id: plain\n    module: ./plain.mjs\nexpect:'),
    }
    const report = await sweepWith(plugins, makeRunner())
    expect(report.verdict).toBe('deterministic')
    expect(report.outputs.map(output => output.tools)).toEqual([['a', 'from_class', 'from_plain']])
    expect(report.passed).toBe(true)
  })
})
