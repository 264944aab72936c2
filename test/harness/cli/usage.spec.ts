import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadScenarios } from '../../../harness/scenario/load.ts'
import { ScenarioErrors } from '../../../harness/scenario/errors.ts'
import { COMMANDS, main } from '../../../harness/cli/main.ts'
import { progressLine, progressText } from '../../../harness/cli/progress.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'
import { captured, exists, FIVE, huge, inDir, listing, MALFORMED, PAIR, RACE, readReport, runCli } from '../../support/cli.ts'

let dir: FixtureDir

beforeAll(async () => {
  dir = await fixtureDir()
  await dir.write('scenarios/pair.yml', PAIR)
  await dir.write('scenarios/five.yml', FIVE)
  await dir.write('scenarios/race.yml', RACE)
  await dir.write('bad/broken.yml', MALFORMED)
  await dir.write('bad/pair.yml', PAIR)
  await dir.write('huge/huge.yml', huge(21))
  await dir.write('batches/batches.yml', 'name: batches\napp: none\nplugins:\n  - id: fs\n    batches: [[read], [write]]\n  - id: todo\n    tools: [todo]\nexpect:\n  outcome: completed\n')
})

afterAll(removeFixtureDirs)

describe('loadrace --help', () => {
  it('lists every command with its summary, and the exit codes', async () => {
    for (const flag of ['--help', '-h']) {
      const out = captured()
      expect(await main([flag], out.cli)).toBe(0)
      for (const command of COMMANDS) expect(out.stdout()).toMatch(new RegExp(`^  ${command.spec.name}\\s+${command.spec.summary}$`, 'm'))
      expect(out.stdout()).toContain('130')
      expect(out.stderr()).toBe('')
    }
  })

  it('documents every option of every command with its default', async () => {
    for (const command of COMMANDS) {
      for (const flag of ['--help', '-h']) {
        const out = captured()
        expect(await main([command.spec.name, flag], out.cli)).toBe(0)
        const help = out.stdout()
        expect(help).toContain(`Usage: loadrace ${command.spec.synopsis}`)
        for (const option of command.spec.options) {
          const long = option.short === undefined ? `--${option.name}` : `-${option.short}, --${option.name}`
          const line = help.split('\n').find(text => text.trimStart().startsWith(long))
          expect(line, `--${option.name} in ${command.spec.name} --help`).toBeDefined()
          if (option.default !== undefined) expect(line).toContain(`(default: ${option.default})`)
        }
      }
    }
  })

  it('sweep --help names the defaults the issue fixes', async () => {
    const out = captured()
    await main(['sweep', '--help'], out.cli)
    for (const text of ['--strategy NAME', '(default: auto)', '(default: 5040)', '(default: 0)', '(default: reports/latest)', '(default: json,md,junit,html)', '(default: goldens/ beside the scenario folder)', '-u, --update-goldens', '-t, --filter PATTERN', 'default: scenarios/']) {
      expect(out.stdout()).toContain(text)
    }
  })

  it('the spawned bin prints the same help and exits 0', async () => {
    const run = await runCli(['merge', '--help'], { cwd: dir.root })
    expect(run.code).toBe(0)
    const out = captured()
    await main(['merge', '--help'], out.cli)
    expect(run.stdout).toBe(out.stdout())
  })
})

describe('usage errors exit 2 with one line naming the option, writing nothing', () => {
  const cases: [string[], RegExp][] = [
    [['frobnicate'], /unknown command frobnicate/],
    [[], /missing command/],
    [['sweep', '--frobnicate'], /unknown option --frobnicate/],
    [['sweep', '-x'], /unknown option -x/],
    [['sweep', '--shard', '3/2'], /--shard: .*i\/n/],
    [['sweep', '--shard', '0/2'], /--shard: /],
    [['sweep', '--budget', '-1'], /--budget: expected a whole number ≥ 1, got "-1"/],
    [['sweep', '--budget', '1.5'], /--budget: /],
    [['sweep', '--workers', '0'], /--workers: expected a whole number ≥ 1, got "0"/],
    [['sweep', '--format', 'xml'], /--format: unknown report format "xml"; allowed: json, md, junit, html/],
    [['sweep', '--format', ''], /--format: /],
    [['sweep', '--strategy', 'dfs'], /--strategy: expected one of auto, exhaustive, random, pct, cover, applies, got "dfs"/],
    [['sweep', '--variant', 'alphabetical'], /--variant: expected one of canonical,/],
    [['sweep', '--target', 'prod'], /--target: expected one of reference, dsh/],
    [['sweep', '--timeout', '5'], /--timeout: expected a whole number from 100 to 600000/],
    [['sweep', '--depth', '0'], /--depth: /],
    [['sweep', '--strength', 'x'], /--strength: /],
    [['sweep', '--seed', ''], /--seed: /],
    [['sweep', '--budget'], /--budget: expects a value N/],
    [['sweep', '--budget', '5', '--budget', '6'], /--budget: given more than once/],
    [['sweep', '--update-goldens=yes'], /--update-goldens: takes no value/],
    [['replay'], /missing TOKEN/],
    [['replay', 'a@canonical:x', 'b@canonical:y', 'c@canonical:z'], /unexpected argument "c@canonical:z"/],
    [['replay', 'no-at-sign:x'], /invalid replay token/],
    [['merge', 'shards'], /--report: required/],
    [['merge', '--report', 'out'], /missing DIR/],
    [['list', '--budget', '5'], /unknown option --budget/],
    [['swep'], /^loadrace: unknown command swep; did you mean sweep\? \(commands: /],
    [['--verison'], /^loadrace: unknown option --verison; did you mean --version\? /],
    [['sweep', '--budgett', '5'], /^loadrace sweep: unknown option --budgett; did you mean --budget\? \(see loadrace sweep --help\)$/m],
    [['sweep', '--updat-goldens'], /unknown option --updat-goldens; did you mean --update-goldens\?/],
    [['sweep', '--strategy', 'exhaustiv'], /--strategy: expected one of auto, exhaustive, random, pct, cover, applies, got "exhaustiv"; did you mean exhaustive\?$/m],
    [['replay', 'x@canonical:a', '--host', 'nod22'], /host "nod22": unknown facet "nod22"; did you mean node22\?/],
  ]

  for (const [args, message] of cases) {
    it(`loadrace ${args.join(' ')}`, async () => {
      const report = join(dir.root, 'never')
      const out = captured()
      const withReport = args[0] === 'sweep' ? [...args, '--report', report] : args
      expect(await main(withReport, out.cli)).toBe(2)
      expect(out.stderr()).toMatch(message)
      expect(out.stderr().split('\n')).toHaveLength(2)
      expect(out.stderr().endsWith('\n')).toBe(true)
      expect(out.stdout()).toBe('')
      expect(await exists(report)).toBe(false)
    })
  }

  it('a spawned sweep with a malformed value creates no report folder', async () => {
    const run = await runCli(['sweep', '--workers', '0'], { cwd: dir.root })
    expect(run.code).toBe(2)
    expect(run.stderr).toBe('loadrace sweep: --workers: expected a whole number ≥ 1, got "0"\n')
    expect(await exists(join(dir.root, 'reports'))).toBe(false)
    expect(await exists(join(dir.root, 'goldens'))).toBe(false)
  })
})

describe('scenario-file errors', () => {
  it('exit 2 with exactly the loader line of the bad file, leaving an existing report untouched', async () => {
    const expected = await inDir(dir.root, () => loadScenarios(['bad']).then(() => [], (error: unknown) => (error as ScenarioErrors).lines))
    expect(expected).toHaveLength(1)
    const reportDir = join(dir.root, 'kept')
    await mkdir(reportDir, { recursive: true })
    await writeFile(join(reportDir, 'report.json'), 'previous\n')
    const run = await runCli(['sweep', 'bad', '--report', 'kept', '--workers', '1'], { cwd: dir.root })
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(`${expected.join('\n')}\n`)
    expect(run.stderr).toContain('bad/broken.yml: expect.outcome')
    expect(await listing(reportDir)).toEqual(['report.json'])
    expect(await readFile(join(reportDir, 'report.json'), 'utf8')).toBe('previous\n')
    expect(await exists(join(dir.root, 'goldens'))).toBe(false)
  })

  it('list reports the same line and exit code', async () => {
    const out = captured()
    expect(await inDir(dir.root, () => main(['list', 'bad'], out.cli))).toBe(2)
    expect(out.stderr()).toMatch(/^bad\/broken\.yml: expect\.outcome: .*\n$/)
  })

  it('no scenario file at all is bad input too', async () => {
    const out = captured()
    expect(await main(['list', join(dir.root, 'nowhere')], out.cli)).toBe(2)
    expect(out.stderr().split('\n')).toHaveLength(2)
  })
})

describe('loadrace list', () => {
  it('prints an aligned table with the exact size of each interleaving space', async () => {
    const run = await runCli(['list', 'scenarios', 'batches', 'huge'], { cwd: dir.root })
    expect(run.code).toBe(0)
    const lines = run.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^SCENARIO\s+PLUGINS\s+SPACE\s+VARIANT\s+TARGET\s+FILE$/)
    const rows = Object.fromEntries(lines.slice(1).map(line => [line.split(/\s+/)[0], line.split(/\s+/)]))
    expect(rows.pair).toEqual(['pair', '2', '2', 'canonical', 'reference', 'scenarios/pair.yml'])
    expect(rows.five).toEqual(['five', '5', '120', 'canonical', 'reference', 'scenarios/five.yml'])
    expect(rows.race).toEqual(['race', '2', '2', 'registration-order', 'reference', 'scenarios/race.yml'])
    // fs has two batches: 3!/(2!·1!) = 3 interleavings.
    expect(rows.batches).toEqual(['batches', '2', '3', 'canonical', 'reference', 'batches/batches.yml'])
    // 21! is beyond 2^53: printed exactly.
    expect(rows.huge?.[2]).toBe('51090942171709440000')
    const columns = lines.map(line => line.indexOf('reference') >= 0 ? line.indexOf('reference') : line.indexOf('TARGET'))
    expect(new Set(columns).size).toBe(1)
  })
})

describe('exit codes of a sweep', () => {
  it('0 when every scenario meets its expectation, 1 when one does not; no progress without a terminal', async () => {
    const passing = await runCli(['sweep', 'scenarios/pair.yml', 'scenarios/race.yml', '--workers', '1', '--report', 'r0'], { cwd: dir.root })
    expect(passing.stderr).toBe('')
    expect(passing.code).toBe(0)
    expect(passing.stdout).toMatch(/^✓\s+pair\s+deterministic \(completed\)\s+exhaustive\s+2\/2$/m)
    expect(passing.stdout).toMatch(/^✓\s+race\s+divergent \(completed\)\s+exhaustive\s+2\/2  \(divergent, as its file expects\)$/m)
    expect(passing.stdout).toContain(join('r0', 'report.json'))
    expect((await readReport(join(dir.root, 'r0'))).summary).toMatchObject({ scenarios: 2, passed: 2, failed: 0 })

    // Under the canonical order the race is gone, so the scenario's expectation fails.
    const failing = await runCli(['sweep', 'scenarios/race.yml', '--variant', 'canonical', '--workers', '1', '--report', 'r1'], { cwd: dir.root })
    expect(failing.code).toBe(1)
    expect(failing.stderr).toBe('')
    expect(failing.stdout).toMatch(/^✗\s+race\s+deterministic \(completed\)/m)
    expect(failing.stdout).toContain('expected a race, but all 2 explored interleavings gave identical bytes')
    expect(failing.stdout).toContain("npx loadrace replay 'race@canonical:")
    expect((await readReport(join(dir.root, 'r1'))).scenarios[0]!.passed).toBe(false)
  })
})

describe('progress line', () => {
  it('is drawn on a terminal, rewritten in place: name, explored/planned, rate, ETA', () => {
    let written = ''
    let time = 0
    const progress = progressLine({ isTTY: true, write: (text: string) => { written += text } }, {}, () => time)!
    expect(progress).toBeDefined()
    progress.update('five', 1, 10)
    time = 2000
    progress.update('five', 5, 10)
    expect(written).toBe('\r\x1b[2Kfive  1/10  0/s  ETA ?\r\x1b[2Kfive  5/10  3/s  ETA 2 s')
    progress.clear()
    expect(written.endsWith('\r\x1b[2K')).toBe(true)
    expect(progressText('x', 30, 90, 10_000)).toBe('x  30/90  3/s  ETA 20 s')
    expect(progressText('x', 1, 200, 1000)).toBe('x  1/200  1/s  ETA 3 min 19 s')
  })

  it('is silent when stderr is not a terminal, or under CI', () => {
    expect(progressLine({ write: () => {} }, {})).toBeUndefined()
    expect(progressLine({ isTTY: false, write: () => {} }, {})).toBeUndefined()
    expect(progressLine({ isTTY: true, write: () => {} }, { CI: 'true' })).toBeUndefined()
    expect(progressLine({ isTTY: true, write: () => {} }, { CI: 'false' })).toBeDefined()
  })
})
