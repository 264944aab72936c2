import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../harness/cli/main.ts'
import type { Report } from '../../../harness/report/sweep-report.ts'
import { checkScenario, describeFailure } from '../../../harness/vitest.ts'
import { BIN, captured, inDir, RACE, readReport, runCli } from '../../support/cli.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'

const exec = promisify(execFile)

let dir: FixtureDir
let sweep: { stdout: string, report: Report }

/** A plugin whose import waits for a service nobody provides: its later batch is never released. */
const UNREACHED = `name: unreached
app: none
plugins:
  - id: tool-a
    tools: [a]
  - id: tool-g
    inject: [ghost]
    batches: [[g1], [g2]]
expect:
  outcome: completed
  inactive: [tool-g]
`

/** A tool whose description alone is 100 kB: a replay prints more than a pipe holds. */
const LARGE = `name: large
app: none
plugins:
  - id: tool-a
    tools:
      - name: a
        description: "${'x'.repeat(100_000)}"
  - id: tool-b
    tools: [b]
expect:
  outcome: completed
`

/** Runs a printed command in `cwd` through the shell, with `npx loadrace` meaning this checkout's bin. */
async function runPrinted(command: string, cwd: string): Promise<string> {
  const { stdout } = await exec('sh', ['-c', command.replace(/^npx loadrace /, `node ${JSON.stringify(BIN)} `)], { cwd, maxBuffer: 1 << 24 })
  return stdout
}

/** The hash line a text replay ends with. */
function hashOf(output: string): string | undefined {
  return /\nhash: ([0-9a-f]{64})\n$/.exec(output)?.[1]
}

beforeAll(async () => {
  dir = await fixtureDir()
  // The race, expected deterministic: it fails, so every format prints its replay commands.
  await dir.write('work/elsewhere/race.yml', RACE.replace('  deterministic: false\n', ''))
  await dir.write('work/elsewhere/unreached.yml', UNREACHED)
  await dir.write('work/large.yml', LARGE)
  const run = await runCli(['sweep', 'elsewhere', '--workers', '1', '--report', 'out'], { cwd: join(dir.root, 'work') })
  expect(run.code).toBe(1)
  sweep = { stdout: run.stdout, report: await readReport(join(dir.root, 'work', 'out')) }
})

afterAll(removeFixtureDirs)

describe('every printed replay command works where it was printed', () => {
  const cwd = () => join(dir.root, 'work')
  const race = () => sweep.report.scenarios.find(scenario => scenario.name === 'race')!
  const hashes = () => new Set(race().outputs.map(output => output.hash))

  it('the terminal lines, for a scenario outside scenarios/', async () => {
    const commands = [...sweep.stdout.matchAll(/replay \([^)]*\): (npx loadrace replay .*)$/gm)].map(match => match[1]!)
    expect(commands).toHaveLength(2)
    expect(commands[0]).toContain('--scenarios elsewhere/race.yml')
    for (const command of commands) expect(hashes().has(hashOf(await runPrinted(command, cwd()))!)).toBe(true)
  })

  it('report.md and junit.xml', async () => {
    const markdown = await readFile(join(cwd(), 'out', 'report.md'), 'utf8')
    const junit = await readFile(join(cwd(), 'out', 'junit.xml'), 'utf8')
    const commands = [...markdown.matchAll(/^(npx loadrace replay .*)$/gm), ...junit.matchAll(/^ *(npx loadrace replay .*)$/gm)]
      .map(match => match[1]!.replace(/&apos;|&#39;/g, "'"))
    expect(commands.length).toBeGreaterThanOrEqual(4)
    for (const command of commands) expect(hashes().has(hashOf(await runPrinted(command, cwd()))!)).toBe(true)
  })

  it('the vitest helper message', async () => {
    const report = await inDir(cwd(), () => checkScenario('elsewhere/race.yml'))
    const message = describeFailure(report)
    const command = /replay \([^)]*\): (npx loadrace replay .*)$/m.exec(message)![1]!
    expect(command).toContain(`--scenarios elsewhere/race.yml`)
    expect(hashes().has(hashOf(await runPrinted(command, cwd()))!)).toBe(true)
  })

  it('a token names every operation, even those never released, and replays to the same bytes', async () => {
    const unreached = sweep.report.scenarios.find(scenario => scenario.name === 'unreached')!
    const output = unreached.outputs[0]!
    expect(output.token).toMatch(/^unreached@canonical:(tool-a,tool-g|tool-g,tool-a),tool-g#2$/)
    const out = captured()
    expect(await inDir(cwd(), () => main(['replay', '--json', output.token, '--scenarios', 'elsewhere'], out.cli))).toBe(0)
    const replayed = JSON.parse(out.stdout()) as { hash: string, schedule: string[] }
    // The interleaving released two operations; tool-g#2 never became pending.
    expect(replayed.schedule).toEqual(output.token.split(':')[1]!.split(',').slice(0, 2))
    expect(replayed.hash).toBe(output.hash)
  })
})

describe('tokens that cannot be replayed are rejected with the operations allowed', () => {
  const replay = async (token: string) => {
    const out = captured()
    const code = await inDir(join(dir.root, 'work'), () => main(['replay', token, '--scenarios', 'elsewhere'], out.cli))
    return { code, stderr: out.stderr(), stdout: out.stdout() }
  }

  it('an incomplete order', async () => {
    const run = await replay('unreached@canonical:tool-a,tool-g')
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe('loadrace replay: the order is incomplete: it names 2 of the 3 operations of scenario "unreached", missing tool-g#2 (operations: tool-a, tool-g, tool-g#2; a token names every one)\n')
  })

  it('an unknown operation', async () => {
    const run = await replay('race@registration-order:tool-ta,tool-tz')
    expect(run.code).toBe(2)
    expect(run.stderr).toBe('loadrace replay: operation "tool-tz" is not an operation of scenario "race" (operations: tool-ta, tool-tb)\n')
  })
})

describe('loadrace replay A B', () => {
  it('shows where two tokens\' projections differ, and the diff, and exits 1', async () => {
    const [a, b] = sweep.report.scenarios.find(scenario => scenario.name === 'race')!.outputs
    const out = captured()
    expect(await inDir(join(dir.root, 'work'), () => main(['replay', a!.token, b!.token, '--scenarios', 'elsewhere/race.yml'], out.cli))).toBe(1)
    const text = out.stdout()
    expect(text.startsWith(`A: ${a!.token}\n   hash ${a!.hash}\nB: ${b!.token}\n   hash ${b!.hash}\n\nthe projections differ, first in the header (order):\n\n--- A\n+++ B\n`)).toBe(true)
    expect(text).toMatch(/\n- {8}"name": "t[ab]",\n/)
    expect(text).toMatch(/\n\+ {8}"name": "t[ab]",\n/)

    const json = captured()
    expect(await inDir(join(dir.root, 'work'), () => main(['replay', '--json', a!.token, a!.token, '--scenarios', 'elsewhere/race.yml'], json.cli))).toBe(0)
    const parsed = JSON.parse(json.stdout()) as { a: { hash: string }, b: { hash: string }, identical: boolean, diff: string }
    expect(parsed).toMatchObject({ a: { hash: a!.hash }, b: { hash: a!.hash }, identical: true, diff: '' })

    const differing = captured()
    expect(await inDir(join(dir.root, 'work'), () => main(['replay', '--json', a!.token, b!.token, '--scenarios', 'elsewhere/race.yml'], differing.cli))).toBe(1)
    expect(JSON.parse(differing.stdout())).toMatchObject({ identical: false })
  })

  it('says when two tokens give the same bytes, and exits 0', async () => {
    const out = captured()
    const tokens = ['race@canonical:tool-ta,tool-tb', 'race@canonical:tool-tb,tool-ta']
    expect(await inDir(join(dir.root, 'work'), () => main(['replay', ...tokens, '--scenarios', 'elsewhere'], out.cli))).toBe(0)
    expect(out.stdout()).toContain('\nidentical projections: the two interleavings give the same bytes\n')
  })
})

describe('output through a pipe', () => {
  it('a 100 kB replay reaches a slow reader complete', async () => {
    const command = `node ${JSON.stringify(BIN)} replay --json 'large@canonical:tool-a,tool-b' --scenarios large.yml | (sleep 1; cat > piped.json)`
    await exec('sh', ['-c', command], { cwd: join(dir.root, 'work') })
    const text = await readFile(join(dir.root, 'work', 'piped.json'), 'utf8')
    expect(text.length).toBeGreaterThan(100_000)
    const replayed = JSON.parse(text) as { projection: { header: { tools: { description: string }[] } } }
    expect(replayed.projection.header.tools[0]!.description).toBe('x'.repeat(100_000))
  })

  it('a reader that stops early does not crash the sweep, which still writes its report and exits with its code', async () => {
    const command = `node ${JSON.stringify(BIN)} sweep elsewhere --workers 1 --report early | head -1; echo "exit $\{PIPESTATUS[0]}"`
    const { stdout, stderr } = await exec('bash', ['-c', command], { cwd: join(dir.root, 'work'), env: { ...process.env, CI: '' } })
    expect(stderr).toBe('')
    expect(stdout).toMatch(/^✗ {2}race +divergent.*\nexit 1\n$/)
    expect((await readReport(join(dir.root, 'work', 'early'))).scenarios).toHaveLength(2)
  })
})
