/**
 * What plugins await while booting is held by the scheduler too: timers are
 * scheduling points on a virtual clock, discovered by running the scenario
 * and named in tokens; I/O and immediates are waited for before the next
 * release; time advances only when nothing else can run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadScenario } from '../../../harness/scenario/load.ts'
import type { Scenario } from '../../../harness/scenario/scenario.ts'
import { runInterleaving } from '../../../harness/runtime/interleaving.ts'
import { referenceTarget } from '../../../harness/targets/reference.ts'
import { headerToolNames } from '../../../harness/projection/projection.ts'
import { inProcessRunner } from '../../../harness/runners/runner.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { discoverSpace, explore } from '../../../harness/explore/explore.ts'
import { parseToken } from '../../../harness/token.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'
import { main } from '../../../harness/cli/main.ts'
import { captured } from '../../support/cli.ts'

/** A module plugin that awaits `wait` (a statement) in apply, then registers tool `tool`. */
function waitingPlugin(tool: string, prelude: string, wait: string): string {
  return `${prelude}
export default {
  name: '${tool}',
  inject: ['tools'],
  async apply(ctx, config) {
    ${wait}
    ctx.tools.register({ name: '${tool}', description: '${tool} tool', parameters: { type: 'object', properties: {} }, execute: () => 'ok' })
  },
}
`
}

const PLUGINS = {
  slow: waitingPlugin('aaa_slow', `import { setTimeout as sleep } from 'node:timers/promises'`, 'await sleep(config.ms)'),
  hops: waitingPlugin('aaa_hops', '', 'for (let i = 0; i < config.hops; i++) await new Promise(resolve => setImmediate(resolve))'),
  file: waitingPlugin('aaa_file', `import { readFile } from 'node:fs/promises'`, 'await readFile(new URL(import.meta.url)); await readFile(new URL(import.meta.url))'),
  child: waitingPlugin('aaa_child', `import { execFile } from 'node:child_process'`, `await new Promise((resolve, reject) => execFile(process.execPath, ['-e', ''], error => error ? reject(error) : resolve()))`),
  /** Compresses 32 MiB with gzip: a zlib step on the thread pool, which Node lists as no resource. */
  zlib: waitingPlugin('aaa_zlib', `import { gzip } from 'node:zlib'\nimport { promisify } from 'node:util'`, 'await promisify(gzip)(Buffer.alloc(32 * 1024 * 1024, 7))'),
  /** Derives a key with 300 000 pbkdf2 rounds: a crypto job on the thread pool, listed as no resource either. */
  crypto: waitingPlugin('aaa_crypto', `import { pbkdf2 } from 'node:crypto'\nimport { promisify } from 'node:util'`, `await promisify(pbkdf2)('secret', 'salt', 300_000, 32, 'sha256')`),
  sleepy: waitingPlugin('aaa_sleepy', `import { setTimeout as sleep } from 'node:timers/promises'`, 'await sleep(60_000)'),
  /** Two timers set up together fire in deadline order on every machine: y (1 ms) registers before x (5 ms). */
  pair: `export default {
  name: 'pair',
  inject: ['tools'],
  async apply(ctx) {
    const register = name => ctx.tools.register({ name, description: name + ' tool', parameters: { type: 'object', properties: {} }, execute: () => 'ok' })
    await Promise.all([
      new Promise(resolve => setTimeout(() => resolve(register('x_late')), 5)),
      new Promise(resolve => setTimeout(() => resolve(register('y_early')), 1)),
    ])
  },
}
`,
  poller: waitingPlugin('aaa_poller', '', 'await new Promise(resolve => { let polls = 0; const poll = setInterval(() => { if (++polls === 3) { clearInterval(poll); resolve() } }, 5) })'),
  /** Delays every step by 50 ms in an `agent/pre-step` listener: the turns wait on a timer. */
  stepper: `import { setTimeout as sleep } from 'node:timers/promises'
export default {
  name: 'stepper',
  apply(ctx) {
    ctx.on('agent/pre-step', async (_payload, next) => { await sleep(50); return next() })
  },
}
`,
  /** Sets up a timer only when tool-fast registered before it applied: its operations depend on the schedule. */
  shifty: `import { setTimeout as sleep } from 'node:timers/promises'
export default {
  name: 'shifty',
  inject: ['tools'],
  async apply(ctx) {
    if (ctx.tools.get('bbb_fast')) await sleep(1)
    ctx.tools.register({ name: 'aaa_shifty', description: 'aaa_shifty tool', parameters: { type: 'object', properties: {} }, execute: () => 'ok' })
  },
}
`,
}

/** A scenario racing module plugin `plugin` (id `tool-<plugin>`) against a synthetic plugin registering `bbb_fast`. */
function race(name: string, plugin: keyof typeof PLUGINS, config: string, variant = 'registration-order'): string {
  return `name: ${name}
app: none
variant: ${variant}
plugins:
  - id: tool-${plugin}
    module: ./plugins/${plugin}.mjs
    config: ${config}
  - id: tool-fast
    tools: [bbb_fast]
expect:
  outcome: completed
  deterministic: ${variant === 'canonical'}
`
}

let dir: FixtureDir
beforeAll(async () => {
  dir = await fixtureDir()
  for (const [name, text] of Object.entries(PLUGINS)) await dir.write(`plugins/${name}.mjs`, text)
})
afterAll(removeFixtureDirs)

async function scenarioOf(name: string, text: string): Promise<Scenario> {
  return loadScenario(await dir.write(`${name}.yml`, text))
}

/** The header's tool names of one interleaving. */
async function headerOf(scenario: Scenario, schedule: string[]): Promise<string[]> {
  const result = await runInterleaving(scenario, referenceTarget, schedule)
  expect(result.projection.outcome).toBe('completed')
  return headerToolNames(result.projection)
}

const sweepOptions = { strategy: 'auto' as const, budget: 5040, seed: '0', workers: 1 }

describe('timers are scheduling points', () => {
  it('a plugin that sleeps 3 ms registers before or after another plugin exactly as the schedule says', async () => {
    const scenario = await scenarioOf('slow-fast', race('slow-fast', 'slow', '{ ms: 3 }'))
    expect(await headerOf(scenario, ['tool-slow', 'tool-slow#timer1', 'tool-fast'])).toEqual(['aaa_slow', 'bbb_fast'])
    expect(await headerOf(scenario, ['tool-slow', 'tool-fast', 'tool-slow#timer1'])).toEqual(['bbb_fast', 'aaa_slow'])
    expect(await headerOf(scenario, ['tool-fast', 'tool-slow', 'tool-slow#timer1'])).toEqual(['bbb_fast', 'aaa_slow'])
  })

  it('the race is divergent under registration-order, blaming the two plugins, and every token replays to its hash three times', async () => {
    const scenario = await scenarioOf('slow-fast-race', race('slow-fast-race', 'slow', '{ ms: 3 }'))
    const report = await sweepScenario(scenario, sweepOptions, { runner: inProcessRunner() })
    expect(report).toMatchObject({ verdict: 'divergent', guarantee: 'exhaustive', space: '3', planned: 3, explored: 3, discovered: ['tool-slow#timer1'], passed: true })
    expect([...report.divergence!.blame].sort()).toEqual(['tool-fast', 'tool-slow'])
    for (const output of report.outputs) {
      const token = parseToken(output.token)
      expect(token.schedule).toContain('tool-slow#timer1')
      for (let i = 0; i < 3; i++) expect((await runInterleaving(scenario, referenceTarget, token.schedule)).hash).toBe(output.hash)
    }
    for (const token of report.divergence!.tokens) expect(parseToken(token).schedule).toHaveLength(3)
  })

  it('the same race is deterministic under canonical, with the exhaustive guarantee over the discovered space', async () => {
    const scenario = await scenarioOf('slow-fast-canonical', race('slow-fast-canonical', 'slow', '{ ms: 3 }', 'canonical'))
    const report = await sweepScenario(scenario, sweepOptions, { runner: inProcessRunner() })
    expect(report).toMatchObject({ verdict: 'deterministic', guarantee: 'exhaustive', explored: 3, distinctOutputs: 1, passed: true })
    expect(report.outputs[0]!.tools).toEqual(['aaa_slow', 'bbb_fast'])
  })

  it('gives the same verdict and outputs on every run of the same sweep (20 ms await, 10 runs)', async () => {
    const scenario = await scenarioOf('slow-20', race('slow-20', 'slow', '{ ms: 20 }'))
    const seen = new Set<string>()
    for (let run = 0; run < 10; run++) {
      const report = await sweepScenario(scenario, sweepOptions, { runner: inProcessRunner() })
      seen.add(JSON.stringify({ verdict: report.verdict, outputs: report.outputs.map(output => [output.hash, output.count, output.token]) }))
    }
    expect(seen.size).toBe(1)
    expect(JSON.parse([...seen][0]!).verdict).toBe('divergent')
  })

  it('a timer nothing else can overtake is released at once: time advances when nothing else can run', async () => {
    const scenario = await scenarioOf('sleepy', race('sleepy', 'sleepy', '{}', 'canonical'))
    const started = Date.now()
    expect(await headerOf(scenario, ['tool-sleepy', 'tool-fast'])).toEqual(['aaa_sleepy', 'bbb_fast'])
    expect(Date.now() - started).toBeLessThan(10_000)
    const space = await discoverSpace(scenario, inProcessRunner())
    expect(space.chains.map(chain => chain.ops)).toEqual([['tool-sleepy', 'tool-sleepy#timer1'], ['tool-fast']])
  })
})

describe('the discovered space', () => {
  it('is what loadrace list shows, with the chains of every scenario whose space differs from its file', async () => {
    const file = await dir.write('listed/slow-listed.yml', race('slow-listed', 'slow', '{ ms: 3 }').replaceAll('./plugins/', '../plugins/'))
    await dir.write('listed/plain.yml', `name: plain\napp: none\nplugins:\n  - id: tool-a\n    tools: [a]\nexpect:\n  outcome: completed\n`)
    const out = captured()
    expect(await main(['list', file, `${dir.root}/listed/plain.yml`], out.cli)).toBe(0)
    const lines = out.stdout().split('\n')
    expect(lines.find(line => line.startsWith('slow-listed'))).toMatch(/^slow-listed\s+2\s+3\s/)
    expect(lines.find(line => line.startsWith('plain'))).toMatch(/^plain\s+1\s+1\s/)
    expect(out.stdout()).toContain('slow-listed (declared: 2 interleavings; discovered by running it):\n  tool-slow → tool-slow#timer1\n  tool-fast\n')
    expect(out.stdout()).not.toContain('plain (declared')
  })
})

describe('time advances when nothing else can run', () => {
  it('for an interval a plugin polls until ready: its first firing is a scheduling point, later ones follow as the boot waits', async () => {
    const scenario = await scenarioOf('poller', race('poller', 'poller', '{}', 'canonical'))
    const report = await sweepScenario(scenario, sweepOptions, { runner: inProcessRunner() })
    expect(report).toMatchObject({ verdict: 'deterministic', outcome: 'completed', discovered: ['tool-poller#timer1'], passed: true })
    expect(report.outputs[0]!.tools).toEqual(['aaa_poller', 'bbb_fast'])
  })

  it('for a timer a turn waits on, without making it a scheduling point', async () => {
    await dir.write('plugins/stepper.mjs', PLUGINS.stepper)
    const scenario = await scenarioOf('stepper', `name: stepper
app: none
turns: 2
plugins:
  - id: stepper
    module: ./plugins/stepper.mjs
  - id: tool-fast
    tools: [bbb_fast]
expect:
  outcome: completed
  tools: [bbb_fast]
`)
    const started = Date.now()
    const report = await sweepScenario(scenario, sweepOptions, { runner: inProcessRunner() })
    expect(report).toMatchObject({ verdict: 'deterministic', outcome: 'completed', discovered: [], space: '2', passed: true })
    // Two steps of two interleavings, plus the discovery and judging runs, each waiting 50 ms of virtual time only.
    expect(Date.now() - started).toBeLessThan(10_000)
  })
})

describe('the virtual clock', () => {
  it('never lets a later deadline overtake an earlier one set up at the same moment, whatever the schedule asks', async () => {
    const scenario = await scenarioOf('pair', `name: pair
app: none
variant: registration-order
plugins:
  - id: tool-pair
    module: ./plugins/pair.mjs
expect:
  outcome: completed
  tools: [y_early, x_late]
`)
    // The schedule asks for the 5 ms timer first; the clock refuses, and the 1 ms one goes first.
    expect(await headerOf(scenario, ['tool-pair', 'tool-pair#timer1', 'tool-pair#timer2'])).toEqual(['y_early', 'x_late'])
    const report = await sweepScenario(scenario, { ...sweepOptions, strategy: 'exhaustive' }, { runner: inProcessRunner() })
    expect(report).toMatchObject({ verdict: 'deterministic', guarantee: 'exhaustive', planned: 1, explored: 1, passed: true })
    expect(report.outputs[0]!.tools).toEqual(['y_early', 'x_late'])
  })
})

/** A plugin of `kind` racing a fast one registers exactly where the schedule puts it, in both orders: what it awaits completes before the next release. */
async function expectReleasedAfterItsWork(kind: keyof typeof PLUGINS, config: string): Promise<void> {
  const scenario = await scenarioOf(kind, race(kind, kind, config))
  expect(await headerOf(scenario, [`tool-${kind}`, 'tool-fast'])).toEqual([`aaa_${kind}`, 'bbb_fast'])
  expect(await headerOf(scenario, ['tool-fast', `tool-${kind}`])).toEqual(['bbb_fast', `aaa_${kind}`])
}

describe('quiescence waits for what the system is doing', () => {
  it('immediates a plugin hops through before registering run before the next release', async () => {
    await expectReleasedAfterItsWork('hops', '{ hops: 3 }')
  })

  it('file reads a plugin awaits complete before the next release', async () => {
    await expectReleasedAfterItsWork('file', '{}')
  })

  it('compression a plugin awaits on the thread pool (zlib) completes before the next release, and is not taken for a hang', async () => {
    await expectReleasedAfterItsWork('zlib', '{}')
  })

  it('a crypto job a plugin awaits on the thread pool (pbkdf2) completes before the next release, and is not taken for a hang', async () => {
    await expectReleasedAfterItsWork('crypto', '{}')
  })

  it('a child process a plugin awaits exits before the next release', async () => {
    await expectReleasedAfterItsWork('child', '{}')
  })
})

describe('counts and guarantees speak of what ran', () => {
  it('explored counts distinct effective release orders, apart from the planned schedules', async () => {
    // tool-late's second batch cannot go before the service its first batch waits for: one planned order collapses.
    const provider = `export default {
  name: 'provider',
  apply(ctx) { ctx.set('late', {}) },
}
`
    await dir.write('plugins/provider.mjs', provider)
    const scenario = await scenarioOf('collapse', `name: collapse
app: none
plugins:
  - id: tool-late
    inject: [late]
    batches: [[alpha], [beta]]
  - id: provider
    module: ./plugins/provider.mjs
expect:
  outcome: completed
`)
    const exploration = await explore(scenario, inProcessRunner(), { strategy: 'exhaustive', budget: 100, seed: '0' })
    expect(exploration.ran).toBe(3)
    expect(exploration.explored).toBe(2)
    expect(exploration.guarantee).toEqual({ kind: 'exhaustive' })
  })

  it('an effective order outside the discovered space makes the guarantee sampled, naming the run', async () => {
    await dir.write('plugins/shifty.mjs', PLUGINS.shifty)
    const scenario = await scenarioOf('shifty', race('shifty', 'shifty', '{}'))
    // Discovery runs tool-shifty first: no timer. Running tool-fast first adds one.
    const exploration = await explore(scenario, inProcessRunner(), { strategy: 'exhaustive', budget: 100, seed: '0' })
    expect(exploration.ran).toBe(2)
    expect(exploration.deviations).toMatchObject({ count: 1, schedule: ['tool-fast', 'tool-shifty', 'tool-shifty#timer1'] })
    expect(exploration.guarantee).toEqual({ kind: 'sampled' })
  })
})
