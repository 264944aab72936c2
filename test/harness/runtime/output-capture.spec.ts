/**
 * The system's output is captured per interleaving, never printed raw:
 * loadrace's own lines still reach the terminal, `--reporter json` stdout
 * stays JSON whatever plugins print, a passing sweep prints none of it
 * (`--show-output` does), a failed scenario shows it for the interleavings it
 * names — once per distinct output, cut as the diffs are — and report.json
 * has all of it. What a plugin prints is not part of the projection.
 */
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { MAX_DIFF_LINES } from '../../../harness/report/terminal.ts'
import { runInterleaving } from '../../../harness/runtime/interleaving.ts'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { referenceTarget } from '../../../harness/targets/reference.ts'
import { FIVE, PAIR, readReport, runCli } from '../../support/cli.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)

/** A plugin that talks while it boots, on every channel a plugin uses. */
const TALK = `export default {
  name: 'talk',
  apply() {
    process.stdout.write('talk: booting on stdout\\n')
    process.stderr.write('talk: a warning on stderr\\n')
    console.log('talk: %s via console.log', 'formatted')
    console.error('talk: via console.error')
  },
}
`

/** The chunks `TALK`'s definition prints, in order. */
const TALKED = [
  { stream: 'stdout', entry: 'talk', text: 'talk: booting on stdout\n' },
  { stream: 'stderr', entry: 'talk', text: 'talk: a warning on stderr\n' },
  { stream: 'stdout', entry: 'talk', text: 'talk: formatted via console.log\n' },
  { stream: 'stderr', entry: 'talk', text: 'talk: via console.error\n' },
]

function talkScenario(expectBlock = '  outcome: completed\n', extra = ''): string {
  return `name: talk\napp: none\nplugins:\n  - id: tool-a\n    tools: [a]\n  - id: talk\n    module: ./talk.mjs\n${extra}expect:\n${expectBlock}`
}

async function project(files: Record<string, string>) {
  const dir = await fixtureDir()
  for (const [name, text] of Object.entries(files)) await dir.write(name, text)
  return dir.root
}

const WHERE: [string, string[]][] = [
  ['in process', ['--workers', '1']],
  ['on worker threads', ['--workers', '2']],
  ['on Node 22 child processes', ['--workers', '2', '--host', 'node22']],
]

describe.each(WHERE)('a plugin that writes to stdout and stderr while booting (%s)', (_, args) => {
  it('leaves --reporter json stdout valid JSON, prints nothing of it on a passing sweep, and keeps it in report.json', async () => {
    const root = await project({ 'talk.mjs': TALK, 'talk.yml': talkScenario(), 'pair.yml': PAIR })
    const run = await runCli(['sweep', 'talk.yml', 'pair.yml', '--reporter', 'json', '--report', 'r', '--goldens', 'g', ...args], { cwd: root })
    expect(run.code).toBe(0)
    const report = JSON.parse(run.stdout) as Awaited<ReturnType<typeof readReport>>
    expect(report.summary).toMatchObject({ scenarios: 2, passed: 2 })
    // stdout is report.json and nothing else: the plugin's lines are in it only as the report's strings.
    expect(report).toEqual(await readReport(join(root, 'r')))
    expect(run.stdout).not.toMatch(/^talk:/m)
    expect(run.stderr).not.toContain('talk:')
    // loadrace's own lines still reach the terminal (here stderr, as --reporter json says).
    expect(run.stderr).toMatch(/^✓ {2}talk {2}deterministic \(completed\)/m)
    const talk = (await readReport(join(root, 'r'))).scenarios.find(scenario => scenario.name === 'talk')!
    expect(talk.systemOutput).toEqual([{ interleavings: [talk.outputs[0]!.token], chunks: TALKED, omitted: 0 }])
    expect((await readReport(join(root, 'r'))).scenarios.find(scenario => scenario.name === 'pair')!.systemOutput).toBeUndefined()
  })

  it('--show-output prints it under the scenario, once for its one distinct output, not once per interleaving', async () => {
    const root = await project({ 'talk.mjs': TALK, 'talk.yml': talkScenario() })
    const run = await runCli(['sweep', 'talk.yml', '--show-output', '--report', 'r', '--goldens', 'g', ...args], { cwd: root })
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^ {4}output of the system in talk@canonical[^:]*:[a-z,-]+:\n {6}talk\/stdout \| talk: booting on stdout\n {6}talk\/stderr \| talk: a warning on stderr\n {6}talk\/stdout \| talk: formatted via console\.log\n {6}talk\/stderr \| talk: via console\.error\n/m)
    expect(run.stdout.match(/talk: booting on stdout/g)).toHaveLength(1)
    expect(run.stderr).not.toContain('talk:')
  })
})

describe('a failed scenario shows what the system printed in the interleavings it names', () => {
  it('once per distinct output, with the interleavings that printed it, cut as the diffs are; report.json has all of it', async () => {
    // Prints which tools were there when it applied (so each side of the race prints its own), then 100 numbered lines.
    const chatty = `export default {
  name: 'talk',
  inject: ['tools'],
  apply(ctx) {
    console.log('saw a: ' + (ctx.tools.get('a') !== undefined))
    for (let i = 1; i <= 100; i++) console.log('line ' + i)
  },
}
`
    const root = await project({ 'talk.mjs': chatty, 'talk.yml': talkScenario('  outcome: completed\n  tools: [a, missing]\n') })
    const run = await runCli(['sweep', 'talk.yml', '--workers', '1', '--report', 'r', '--goldens', 'g'], { cwd: root })
    expect(run.code).toBe(1)
    const talk = (await readReport(join(root, 'r'))).scenarios[0]!
    // Output is not part of the projection: the two orders print differently but give the same bytes.
    expect(talk.verdict).toBe('deterministic')
    expect(talk.systemOutput).toHaveLength(1)
    expect(talk.systemOutput![0]!.interleavings).toEqual([talk.outputs[0]!.token])
    expect(talk.systemOutput![0]!.chunks.map(chunk => chunk.text).join('').split('\n').filter(line => line !== '')).toHaveLength(101)
    const shown = run.stdout.split('\n').filter(line => line.startsWith('      talk/stdout | '))
    expect(shown).toHaveLength(MAX_DIFF_LINES)
    expect(run.stdout).toContain(`      … ${101 - MAX_DIFF_LINES} more lines in the report\n`)
    expect(run.stderr).toBe('')
  })

  it('a divergence names both sides: each distinct output is shown once, with the tokens that printed it', async () => {
    const racing = `export default {
  name: 'talk',
  inject: ['tools'],
  apply(ctx) {
    const first = ctx.tools.get('a') === undefined
    console.log(first ? 'talk came first' : 'talk came second')
    ctx.tools.register({ name: first ? 'early' : 'late', description: 'd', parameters: { type: 'object', properties: {} } })
  },
}
`
    const root = await project({ 'talk.mjs': racing, 'talk.yml': talkScenario() })
    const run = await runCli(['sweep', 'talk.yml', '--workers', '2', '--report', 'r', '--goldens', 'g'], { cwd: root })
    expect(run.code).toBe(1)
    const talk = (await readReport(join(root, 'r'))).scenarios[0]!
    expect(talk.verdict).toBe('divergent')
    const texts = talk.systemOutput!.map(printed => printed.chunks.map(chunk => chunk.text).join(''))
    expect(texts.sort()).toEqual(['talk came first\n', 'talk came second\n'])
    const [before, after] = talk.divergence!.tokens
    const named = talk.systemOutput!.flatMap(printed => printed.interleavings)
    expect(named).toContain(before)
    expect(named).toContain(after)
    expect(run.stdout.match(/talk\/stdout \| talk came first/g)).toHaveLength(1)
    expect(run.stdout.match(/talk\/stdout \| talk came second/g)).toHaveLength(1)
  })
})

describe('one interleaving, in this process', () => {
  it('keeps what the system printed, in order, whatever console is installed (here the test runner\'s), and prints none of it', async () => {
    const root = await project({ 'talk.mjs': TALK, 'talk.yml': talkScenario() })
    const scenario = await loadScenario(join(root, 'talk.yml'))
    const before = { log: console.log, error: console.error }
    const result = await runInterleaving(scenario, referenceTarget, ['tool-a', 'talk'])
    expect(result.output).toEqual({ chunks: TALKED, omitted: 0 })
    expect(JSON.stringify(result.projection)).not.toContain('talk:')
    // After the interleaving, the console is as it was.
    expect({ log: console.log, error: console.error }).toEqual(before)
  })
})

describe('what the system prints is not part of the projection', () => {
  it('a plugin printing a count kept at module level is deterministic, not uncontrolled', async () => {
    const counting = 'let applied = 0\nexport default { name: \'talk\', apply() { console.log(\'applied \' + ++applied) } }\n'
    const root = await project({ 'talk.mjs': counting, 'talk.yml': talkScenario() })
    const run = await runCli(['sweep', 'talk.yml', '--workers', '1', '--report', 'r', '--goldens', 'g'], { cwd: root })
    const talk = (await readReport(join(root, 'r'))).scenarios[0]!
    expect(talk.verdict).toBe('deterministic')
    expect(run.code).toBe(0)
    expect(run.stdout).not.toContain('applied ')
  })

  it('loadrace\'s heartbeat still reaches stderr while plugins talk', async () => {
    const root = await project({ 'talk.mjs': TALK, 'five.yml': FIVE.replace('expect:', '  - id: talk\n    module: ./talk.mjs\nexpect:').replace('tools: [ta, tb, tc, td, te]', 'tools: [ta, tb, tc, td, te]') })
    const run = await runCli(['sweep', 'five.yml', '--strategy', 'exhaustive', '--workers', '1', '--report', 'r', '--goldens', 'g'], { cwd: root, env: { LOADRACE_HEARTBEAT_MS: '20' } })
    expect(run.code).toBe(0)
    expect(run.stderr.split('\n').filter(line => line !== '').every(line => /^loadrace: \d+ s: (loading|five \(1 of 1\): (starting|\d+\/720 interleavings))$/.test(line))).toBe(true)
    expect(run.stderr).toMatch(/^loadrace: \d+ s: five/m)
    expect(run.stdout + run.stderr).not.toContain('talk:')
  })
})
