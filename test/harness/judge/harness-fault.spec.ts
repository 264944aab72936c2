/**
 * `uncontrolled` only with evidence: an interleaving whose controlled runs
 * disagree is rerun with loadrace's control of timers and clocks off, the
 * import order still held. Runs that then agree mean the difference was
 * loadrace's own doing (`harness-fault`, exit 3); runs that vary too leave the
 * verdict `uncontrolled`, saying so.
 *
 * How the harness fault is provoked. loadrace's control is meant to be right,
 * so no honest plugin can make only the controlled runs vary. The spec
 * therefore breaks loadrace itself, through the one test-only switch it has
 * for that (`LOADRACE_INJECT_FAULT=clock-drift`, read where an interleaving's
 * pool is made, inherited by worker processes): the held clock then leaks
 * state from one interleaving into the next (each read moves held time on by
 * as many seconds as the process has opened interleavings). The plugin is an
 * ordinary one that measures how long two clock reads take, in whole seconds:
 * on real clocks that is 0 on every run, so its order-only runs agree; under
 * the broken held clock it is different on every run. Nothing else is faked:
 * the scenarios run on the real cordis, in process and on worker processes.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { inProcessRunner, type Runner } from '../../../harness/runners/runner.ts'
import { workerPool } from '../../../harness/runners/worker-pool.ts'
import { assembleReport, sweepScenario } from '../../../harness/sweep/sweep.ts'
import { heldResourceOf, ORDER_ONLY_RERUNS } from '../../../harness/judge/order-only.ts'
import { scenarioBlock } from '../../../harness/report/terminal.ts'
import { renderMarkdown } from '../../../harness/report/markdown.ts'
import { renderHtml } from '../../../harness/report/html.ts'
import { renderJunit } from '../../../harness/report/junit.ts'
import { renderJson } from '../../../harness/report/json.ts'
import { githubAnnotation } from '../../../harness/report/reporters/github-annotations.ts'
import { headline } from '../../../harness/report/present.ts'
import { reportExitCode } from '../../../harness/cli/exit-code.ts'
import type { ScenarioReport } from '../../../harness/judge/scenario-report.ts'
import { cellProblems } from '../../../harness/matrix/check.ts'
import { cellText } from '../../../harness/matrix/render.ts'
import { EPOCH_MS } from '../../../harness/runtime/held-clocks.js'
import type { Control } from '../../../harness/runtime/operations.ts'
import { realNow } from '../../../harness/runtime/real-clock.ts'
import { runCli } from '../../support/cli.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)
afterEach(() => { delete process.env.LOADRACE_INJECT_FAULT })

/** Registers `took_<s>s`: the whole seconds between two clock reads (0 on real clocks, and on loadrace's held ones). */
const TIMED = `export default {
  name: 'timed',
  inject: ['tools'],
  apply(ctx) {
    const start = Date.now()
    const end = Date.now()
    ctx.tools.register({ name: 'took_' + Math.floor((end - start) / 1000) + 's', description: 'timed', parameters: { type: 'object', properties: {} } })
  },
}
`

/** Module-level state: a counter bumped on each apply, written into the tool's description. */
const COUNTER = `let applied = 0
export default {
  name: 'counter',
  inject: ['tools'],
  apply(ctx) {
    applied++
    ctx.tools.register({ name: 'counted', description: 'applied ' + applied + ' times in this process', parameters: { type: 'object', properties: {} } })
  },
}
`

/** Writes the clock it reads into its tool's description. */
const STAMPED = `export default {
  name: 'stamped',
  inject: ['tools'],
  apply(ctx) {
    ctx.tools.register({ name: 'stamped', description: 'at ' + Date.now(), parameters: { type: 'object', properties: {} } })
  },
}
`

/** Waits 1500 ms on a timer before registering its tool. */
const WAITS = `export default {
  name: 'waits',
  inject: ['tools'],
  async apply(ctx) {
    await new Promise(resolve => setTimeout(resolve, 1500))
    ctx.tools.register({ name: 'waited', description: 'waited', parameters: { type: 'object', properties: {} } })
  },
}
`

function scenarioText(name: string, module: string): string {
  return `name: ${name}
app: none
plugins:
  - id: tool-a
    tools: [a]
  - id: ${name}
    module: ./${module}
expect:
  outcome: completed
`
}

async function scenarioOf(name: string, code: string) {
  const dir = await fixtureDir()
  await dir.write(`${name}.mjs`, code)
  const file = await dir.write(`${name}.yml`, scenarioText(name, `${name}.mjs`))
  return { dir, file, scenario: await loadScenario(file) }
}

/** A runner that notes the control every single run asked for (`full` when none). */
function watched(runner: Runner): { runner: Runner, controls: Control[] } {
  const controls: Control[] = []
  return {
    controls,
    runner: { ...runner, runOne: (scenario, schedule, control) => { controls.push(control ?? 'full'); return runner.runOne(scenario, schedule, control) } },
  }
}

const RUNNERS: [string, () => Runner][] = [['in process', () => inProcessRunner()], ['on worker processes', () => workerPool({ size: 2 })]]

describe.each(RUNNERS)('a difference only loadrace\'s control makes (%s)', (_, makeRunner) => {
  it('is a harness fault naming the clock it failed to hold, with the diff against the order-only runs', async () => {
    process.env.LOADRACE_INJECT_FAULT = 'clock-drift'
    const { scenario } = await scenarioOf('timed', TIMED)
    const runner = makeRunner()
    try {
      const report = await sweepScenario(scenario, { strategy: 'exhaustive', budget: 100, seed: '0', workers: 2 }, { runner })
      expect(report.verdict).toBe('harness-fault')
      expect(report.uncontrolled).toBeUndefined()
      const fault = report.harnessFault!
      expect(fault.resource).toMatch(/^(a clock \(Date\.now\)|one of: a clock \(Date\.now\);.*)$/)
      expect(fault.token).toBe(report.outputs[0]!.token)
      expect(fault.orderOnly).toMatchObject({ agree: true })
      expect(fault.orderOnly.hashes).toHaveLength(ORDER_ONLY_RERUNS)
      expect(fault.controlled[0]).not.toBe(fault.controlled[1])
      expect(fault.part).toBe('header')
      expect(fault.diff).toContain(`--- ${fault.token} (controlled)`)
      expect(fault.diff).toContain(`+++ ${fault.token} (order-only)`)
      expect(fault.diff).toMatch(/^\+ +"name": "took_0s"/m)
      expect(report.problems).toEqual([expect.stringMatching(/^loadrace failed to hold a clock \(Date\.now\).* \(a harness fault, not a verdict about the system\): the controlled runs of /)])
      const lines = scenarioBlock(report, report.name.length)
      expect(lines).toContain('    diff of the header (controlled → order-only):')
      reportsTellItApart(report)
    } finally {
      await runner.close()
    }
  }, 120_000)
})

/** Every reporter says it is loadrace's fault, not the system's, and the exit code is 3. */
function reportsTellItApart(report: ScenarioReport): void {
  const whole = assembleReport([report], { strategy: 'exhaustive', seed: '0', budget: 100, workers: 1 }, true, 0)
  const fault = report.harnessFault!
  expect(headline(whole)).toBe('1 failed (1 by a harness fault: loadrace\'s, not the system\'s), 0 passed of 1 scenario')
  expect(renderMarkdown(whole)).toContain(`**Harness fault diff** of the header of \`${fault.token}\` (controlled → order-only)`)
  expect(renderHtml(whole)).toContain('loadrace failed to hold <strong>a clock (Date.now)')
  expect(renderJunit(whole)).toContain(`Harness fault diff of the header of ${fault.token} (controlled -&gt; order-only):`)
  expect(JSON.parse(renderJson(whole)).scenarios[0].harnessFault).toMatchObject({ token: fault.token, resource: fault.resource, orderOnly: { agree: true } })
  expect(githubAnnotation(report)).toContain('title=loadrace%3A harness fault in timed (loadrace failed to hold a clock (Date.now)')
  let stderr = ''
  expect(reportExitCode(whole, { write: (text: string) => { stderr += text } })).toBe(3)
  expect(stderr).toContain(`loadrace: harness fault in scenario timed: loadrace failed to hold ${fault.resource} (replay ${fault.token}); not a verdict about the system`)
  // A matrix cell with a harness fault is not judged against its expectation: no mismatch, its own mark.
  const expected = { verdict: 'deterministic' as const, rule: 'as canonical' }
  expect(cellProblems(expected, report)).toEqual([])
  expect(cellText({ scenario: 'timed', file: report.file, variant: 'canonical', verdict: report.verdict, outcome: report.outcome, explored: 2, distinctOutputs: 2, expected, match: false, harnessFault: true, problems: [], part: null, kind: null, blame: null, golden: 'none', token: null }))
    .toBe('fault (det) !')
}

describe('what loadrace held, in words', () => {
  it('names the one resource, lists several as candidates, and says when it cannot tell', () => {
    // docs/exploring.md and docs/reports.md state this number.
    expect(ORDER_ONLY_RERUNS).toBe(16)
    const none = { timers: [], clocks: [], io: [] }
    expect(heldResourceOf([{ held: { ...none, clocks: [{ api: 'Date.now', reads: 2 }] } }, { held: { ...none, clocks: [{ api: 'Date.now', reads: 1 }] } }])).toBe('a clock (Date.now)')
    expect(heldResourceOf([{ held: { ...none, timers: [{ label: 'tool-slow#timer1', delay: 60000, repeats: false }] } }])).toBe('a timer (setTimeout 60000 ms, tool-slow#timer1)')
    expect(heldResourceOf([{ held: { ...none, io: ['PROCESSWRAP'] } }])).toBe('a child process')
    expect(heldResourceOf([{ held: { timers: [{ label: 'a#timer1', delay: 5, repeats: true }], clocks: [{ api: 'performance.now', reads: 1 }], io: ['TCPWRAP'] } }]))
      .toBe('one of: a clock (performance.now); a timer (setInterval 5 ms, a#timer1); a socket')
    expect(heldResourceOf([{ held: none }])).toMatch(/^not determined: /)
    expect(heldResourceOf([{}])).toMatch(/^not determined: /)
  })
})

describe('a system that varies either way', () => {
  it('stays uncontrolled, with the evidence that the order-only runs varied too', async () => {
    const { scenario } = await scenarioOf('counter', COUNTER)
    const report = await sweepScenario(scenario, { strategy: 'exhaustive', budget: 100, seed: '0', workers: 1 }, { runner: inProcessRunner() })
    expect(report.verdict).toBe('uncontrolled')
    expect(report.harnessFault).toBeUndefined()
    const evidence = report.uncontrolled!.orderOnly!
    expect(evidence.agree).toBe(false)
    // The second run already differs from the first: no more are run.
    expect(evidence.hashes).toHaveLength(2)
    expect(new Set(evidence.hashes).size).toBe(2)
    expect(report.problems[0]).toContain(`evidence: 2 reruns with loadrace's control of timers and clocks off (import order still held) varied too (${evidence.hashes.join(', ')})`)
    const lines = scenarioBlock(report, report.name.length)
    expect(lines).toContainEqual(expect.stringMatching(/^ {4}evidence: 2 reruns .* varied too/))
  }, 60_000)
})

describe('a system whose controlled runs agree', () => {
  it('is judged without a single order-only run, however much its real clock would vary', async () => {
    const { scenario } = await scenarioOf('stamped', STAMPED)
    const { runner, controls } = watched(inProcessRunner())
    const report = await sweepScenario(scenario, { strategy: 'exhaustive', budget: 100, seed: '0', workers: 1 }, { runner })
    expect(report.verdict).toBe('deterministic')
    expect(controls.length).toBeGreaterThan(0)
    expect(controls).not.toContain('order-only')
    // The same interleaving with the control off reads the real clock: it would have varied.
    const schedule = ['tool-a', 'stamped']
    const held = await runner.runOne(scenario, schedule)
    const real = await runner.runOne(scenario, schedule, 'order-only')
    const stamp = (json: string) => Number(/at (\d+)/.exec(json)![1])
    expect(stamp(held.json)).toBe(EPOCH_MS)
    expect(Math.abs(stamp(real.json) - Date.now())).toBeLessThan(60_000)
    expect(held.held?.clocks).toContainEqual({ api: 'Date.now', reads: expect.any(Number) })
    expect(real.held?.clocks).toEqual([])
    expect(real.control).toBe('order-only')
  }, 60_000)
})

describe('control: order-only', () => {
  it('lets the system\'s timers run in real time, unheld; under full control they are held and released at once', async () => {
    const { scenario } = await scenarioOf('waits', WAITS)
    const runner = inProcessRunner()
    const schedule = ['tool-a', 'waits', 'waits#timer1']
    let started = realNow()
    const held = await runner.runOne(scenario, schedule)
    const heldMs = realNow() - started
    started = realNow()
    const real = await runner.runOne(scenario, schedule, 'order-only')
    const realMs = realNow() - started
    expect(held.tools).toEqual(['a', 'waited'])
    expect(real.tools).toEqual(['a', 'waited'])
    expect(held.held?.timers).toEqual([{ label: 'waits#timer1', delay: 1500, repeats: false }])
    expect(real.held?.timers).toEqual([])
    expect(heldMs).toBeLessThan(1500)
    expect(realMs).toBeGreaterThanOrEqual(1400)
  }, 60_000)

  it('keeps the import order of the schedule', async () => {
    const { scenario } = await scenarioOf('stamped', STAMPED)
    const runner = inProcessRunner()
    for (const schedule of [['tool-a', 'stamped'], ['stamped', 'tool-a']]) {
      expect((await runner.runOne(scenario, schedule, 'order-only')).schedule).toEqual(schedule)
    }
  }, 60_000)
})

describe('the command line', () => {
  it('exits 3 for a harness fault, saying on stderr what loadrace failed to hold', async () => {
    const { dir } = await scenarioOf('timed', TIMED)
    await dir.write('package.json', '{"private":true}\n')
    const run = await runCli(['sweep', 'timed.yml', '--workers', '1', '--strategy', 'exhaustive', '--report', 'out'], { cwd: dir.root, env: { LOADRACE_INJECT_FAULT: 'clock-drift' } })
    expect(run.stderr).toMatch(/^loadrace: harness fault in scenario timed: loadrace failed to hold a clock \(Date\.now\).*; not a verdict about the system$/m)
    expect(run.stdout).toContain('harness-fault')
    expect(run.code).toBe(3)
  }, 120_000)
})
