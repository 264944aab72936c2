import { readFile, writeFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { renderJson } from '../../../harness/report/json.ts'
import { parseToken } from '../../../harness/token.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'
import { main } from '../../../harness/cli/main.ts'
import { captured, comparable, CRASH_MODULE, CRASHING, exists, FIVE, inDir, listing, PAIR, RACE, readReport, runCli } from '../../support/cli.ts'

let dir: FixtureDir

beforeAll(async () => {
  dir = await fixtureDir()
  await dir.write('scenarios/pair.yml', PAIR)
  await dir.write('scenarios/five.yml', FIVE)
  await dir.write('scenarios/race.yml', RACE)
  await dir.write('crash/crashing.yml', CRASHING)
  await dir.write('crash/crash.mjs', CRASH_MODULE)
})

afterAll(removeFixtureDirs)

describe('reproducible reports', () => {
  it('the same command and seed twice give byte-identical report.json apart from timings', async () => {
    const args = ['sweep', 'scenarios', '--strategy', 'random', '--budget', '12', '--seed', 'seven', '--workers', '1', '--format', 'json']
    const first = await runCli([...args, '--report', 'seed-a', '--goldens', 'goldens-a'], { cwd: dir.root })
    const second = await runCli([...args, '--report', 'seed-b', '--goldens', 'goldens-b'], { cwd: dir.root })
    expect([first.code, second.code]).toEqual([0, 0])
    expect(await listing(join(dir.root, 'seed-a'))).toEqual(['report.json'])
    const a = await readReport(join(dir.root, 'seed-a'))
    const b = await readReport(join(dir.root, 'seed-b'))
    expect(a.scenarios.find(s => s.name === 'five')!.explored).toBe(12)
    expect(renderJson(comparable(a))).toBe(renderJson(comparable(b)))
    // Another seed explores other interleavings of the five-plugin space.
    const other = await runCli(['sweep', 'scenarios/five.yml', '--strategy', 'random', '--budget', '12', '--seed', 'eight', '--workers', '1', '--report', 'seed-c', '--goldens', 'goldens-c'], { cwd: dir.root })
    expect(other.code).toBe(0)
    const five = (report: typeof a) => report.scenarios.find(s => s.name === 'five')!.outputs[0]!.token
    expect(five(await readReport(join(dir.root, 'seed-c')))).not.toBe(five(a))
  })

  it('--workers 2 writes the report --workers 1 writes, apart from timings and the worker count', async () => {
    const args = ['sweep', 'scenarios', '--strategy', 'exhaustive']
    const one = await runCli([...args, '--workers', '1', '--report', 'w1', '--goldens', 'goldens-w1'], { cwd: dir.root })
    const two = await runCli([...args, '--workers', '2', '--report', 'w2', '--goldens', 'goldens-w2'], { cwd: dir.root })
    expect([one.code, two.code]).toEqual([0, 0])
    const serial = await readReport(join(dir.root, 'w1'))
    const parallel = await readReport(join(dir.root, 'w2'))
    expect(parallel.options.workers).toBe(2)
    expect(serial.summary.interleavings).toBe(2 + 120 + 2)
    // The divergence was minimised and blamed through the worker pool too.
    expect(parallel.scenarios.find(s => s.name === 'race')!.divergence?.blame).toEqual(['tool-ta', 'tool-tb'])
    expect(comparable(parallel)).toEqual(comparable(serial))
  })
})

describe('loadrace replay', () => {
  it('reproduces the hash a report lists for a token, as text and as JSON', async () => {
    const sweep = await runCli(['sweep', 'scenarios/race.yml', '--workers', '1', '--report', 'replay-r'], { cwd: dir.root })
    expect(sweep.code).toBe(0)
    const race = (await readReport(join(dir.root, 'replay-r'))).scenarios[0]!
    expect(race.outputs).toHaveLength(2)
    const first = race.outputs[0]!
    const text = await runCli(['replay', first.token, '--scenarios', 'scenarios'], { cwd: dir.root })
    expect(text.code).toBe(0)
    expect(text.stdout.endsWith(`\nhash: ${first.hash}\n`)).toBe(true)
    const projection = JSON.parse(text.stdout.slice(0, text.stdout.lastIndexOf('\nhash: '))) as { outcome: string }
    expect(projection.outcome).toBe('completed')
    const output = race.outputs[1]!
    const json = await runCli(['replay', '--json', output.token, '--scenarios', 'scenarios/race.yml'], { cwd: dir.root })
    expect(json.code).toBe(0)
    const parsed = JSON.parse(json.stdout) as { token: string, hash: string, schedule: string[], projection: { outcome: string } }
    expect(Object.keys(parsed)).toEqual(['token', 'hash', 'schedule', 'projection'])
    expect(parsed.token).toBe(output.token)
    expect(parsed.hash).toBe(output.hash)
    expect(parsed.schedule).toEqual(parseToken(output.token).schedule)
    expect(parsed.projection.outcome).toBe('completed')
  })

  it('applies the variant of the token, and rejects unknown scenarios and operations with exit 2', async () => {
    const race = (await readReport(join(dir.root, 'replay-r'))).scenarios[0]!
    const canonical = race.outputs[0]!.token.replace('@registration-order:', '@canonical:')
    const swapped = race.outputs[1]!.token.replace('@registration-order:', '@canonical:')
    const replay = async (token: string) => {
      const out = captured()
      expect(await inDir(dir.root, () => main(['replay', '--json', token, '--scenarios', 'scenarios'], out.cli))).toBe(0)
      return JSON.parse(out.stdout()) as { hash: string }
    }
    const a = await replay(canonical)
    const b = await replay(swapped)
    // Under the canonical order both interleavings send the same bytes: those of the race's sorted interleaving.
    expect(a.hash).toBe(b.hash)
    expect(a.hash).toBe(race.outputs[0]!.hash)
    expect(b.hash).not.toBe(race.outputs[1]!.hash)

    const unknown = captured()
    expect(await inDir(dir.root, () => main(['replay', 'ghost@canonical:tool-ta', '--scenarios', 'scenarios'], unknown.cli))).toBe(2)
    expect(unknown.stderr()).toBe('loadrace replay: no scenario named "ghost" (known: five, pair, race)\n')
    const stranger = captured()
    expect(await inDir(dir.root, () => main(['replay', 'pair@canonical:tool-ta,tool-zz', '--scenarios', 'scenarios'], stranger.cli))).toBe(2)
    expect(stranger.stderr()).toBe('loadrace replay: operation "tool-zz" is not an operation of scenario "pair" (operations: tool-ta, tool-tb)\n')
  })
})

describe('goldens', () => {
  const golden = (goldens: string) => join(dir.root, goldens, 'pair.json')

  it('a missing golden is written locally, and matches on the next run', async () => {
    const first = await runCli(['sweep', 'scenarios/pair.yml', '--workers', '1', '--report', 'g1', '--goldens', 'local'], { cwd: dir.root })
    expect(first.code).toBe(0)
    expect((await readReport(join(dir.root, 'g1'))).scenarios[0]!.golden).toBe('written')
    const pinned = JSON.parse(await readFile(golden('local'), 'utf8')) as { scenario: string, header: { tools: { name: string }[] } }
    expect(pinned.scenario).toBe('pair')
    const second = await runCli(['sweep', 'scenarios/pair.yml', '--workers', '1', '--report', 'g2', '--goldens', 'local'], { cwd: dir.root, env: { CI: 'true' } })
    expect(second.code).toBe(0)
    expect((await readReport(join(dir.root, 'g2'))).scenarios[0]!.golden).toBe('match')
  })

  it('a missing golden fails under CI=true and is not written', async () => {
    const run = await runCli(['sweep', 'scenarios/pair.yml', '--workers', '1', '--report', 'g3', '--goldens', 'ci-goldens'], { cwd: dir.root, env: { CI: 'true' } })
    expect(run.code).toBe(1)
    const entry = (await readReport(join(dir.root, 'g3'))).scenarios[0]!
    expect(entry.golden).toBe('missing')
    expect(entry.problems.join('\n')).toContain('--update-goldens')
    expect(await exists(golden('ci-goldens'))).toBe(false)
    // --update-goldens writes it even under CI.
    const update = await runCli(['sweep', 'scenarios/pair.yml', '--workers', '1', '--report', 'g4', '--goldens', 'ci-goldens', '--update-goldens'], { cwd: dir.root, env: { CI: '1' } })
    expect(update.code).toBe(0)
    expect(await exists(golden('ci-goldens'))).toBe(true)
  })

  it('a mismatching golden fails and the summary shows the diff', async () => {
    await mkdir(join(dir.root, 'stale'), { recursive: true })
    const pinned = await readFile(golden('local'), 'utf8')
    await writeFile(golden('stale'), pinned.replace('"completed"', '"turn-error"'))
    const run = await runCli(['sweep', 'scenarios/pair.yml', '--workers', '1', '--report', 'g5', '--goldens', 'stale'], { cwd: dir.root })
    expect(run.code).toBe(1)
    const entry = (await readReport(join(dir.root, 'g5'))).scenarios[0]!
    expect(entry.golden).toBe('mismatch')
    expect(entry.goldenDiff).toContain('-  "outcome": "turn-error",')
    expect(run.stdout).toContain('-  "outcome": "turn-error",')
    expect(run.stdout).toContain('+  "outcome": "completed",')
    expect(await readFile(golden('stale'), 'utf8')).not.toBe(pinned)
  })

  it('an obsolete golden fails a CI sweep and is named on stderr', async () => {
    await writeFile(join(dir.root, 'local', 'retired.json'), '{}\n')
    const run = await runCli(['sweep', 'scenarios/pair.yml', '--workers', '1', '--report', 'g6', '--goldens', 'local'], { cwd: dir.root, env: { CI: 'true' } })
    expect(run.code).toBe(1)
    const report = await readReport(join(dir.root, 'g6'))
    expect(report.summary.failed).toBe(0)
    expect(run.stderr).toBe(`loadrace: obsolete golden ${join('local', 'retired.json')}: no scenario has this name (delete it, or restore the scenario)\n`)
    expect(run.stdout).toContain(`obsolete golden: ${join('local', 'retired.json')}`)
    // Outside CI obsolete goldens are not checked.
    const local = await runCli(['sweep', 'scenarios/pair.yml', '--workers', '1', '--report', 'g7', '--goldens', 'local'], { cwd: dir.root })
    expect(local.code).toBe(0)
  })
})

describe('an internal error in one scenario', () => {
  it('is that scenario\'s error verdict with the message; the others are judged, every report file is written, exit 3', async () => {
    // The crash module ends the worker process running it behind loadrace's back: loadrace itself fails while exploring that scenario.
    const run = await runCli(['sweep', 'scenarios/pair.yml', 'crash', '--workers', '2', '--report', 'crashed'], { cwd: dir.root })
    expect(run.code).toBe(3)
    expect(run.stderr).toMatch(/^loadrace: internal error in scenario crashing: worker process \d+ crashed while running crashing@canonical:[a-z,-]+: the process exited with code 3\n$/)
    expect(await listing(join(dir.root, 'crashed'))).toEqual(['junit.xml', 'report.html', 'report.json', 'report.md'])
    const report = await readReport(join(dir.root, 'crashed'))
    expect(report.complete).toBe(true)
    const crashing = report.scenarios.find(scenario => scenario.name === 'crashing')!
    expect(crashing).toMatchObject({ verdict: 'error', passed: false })
    expect(crashing.error).toMatch(/^worker process \d+ crashed while running crashing@canonical:/)
    expect(crashing.problems).toEqual([`internal error while judging this scenario: ${crashing.error}`])
    expect(report.scenarios.find(scenario => scenario.name === 'pair')).toMatchObject({ verdict: 'deterministic', passed: true })
    expect(await readFile(join(dir.root, 'crashed/report.md'), 'utf8')).toContain(crashing.error)
    expect(await readFile(join(dir.root, 'crashed/junit.xml'), 'utf8')).toContain('type="error"')
    expect(run.stdout).toMatch(/✗\s+crashing\s+error \(none\)/)
  })

  it('has its exit code documented in --help', async () => {
    const { cli, stdout } = captured()
    expect(await main(['sweep', '--help'], cli)).toBe(0)
    expect(stdout()).toMatch(/^ {2}3 {2,}internal error: judging a scenario failed inside loadrace \(verdict error\), or loadrace failed to hold a timer, clock, process or socket it controls \(verdict harness-fault: never a verdict about the system\); the other scenarios and every report file were written$/m)
  })
})
