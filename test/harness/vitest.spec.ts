import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../harness/cli/main.ts'
import { checkSettings, expectDeterministic, expectScenario, loadraceMatchers, ScenarioFailure } from '../../harness/vitest.ts'
import { DEFAULTS } from '../../harness/settings/defaults.ts'
import { resolveSettings } from '../../harness/settings/resolve.ts'
import { captured, inDir, PAIR, RACE } from '../support/cli.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../support/fixture-dirs.ts'

expect.extend(loadraceMatchers)

let dir: FixtureDir

/** Runs `action` in the fixture folder. */
const here = <T>(action: () => Promise<T>) => inDir(dir.root, action)

/** What `loadrace sweep FILE` prints for the scenario, before the blank line of the summary. */
async function cliLines(file: string): Promise<string[]> {
  const out = captured()
  await here(() => main(['sweep', file, '--workers', '1', '--report', 'cli-report'], out.cli))
  return out.stdout().slice(0, out.stdout().indexOf('\n\n')).split('\n')
}

beforeAll(async () => {
  dir = await fixtureDir()
  await dir.write('package.json', '{"private":true}\n')
  await dir.write('checks/race.yml', RACE)
  await dir.write('checks/pair.yml', PAIR)
  await dir.write('checks/flaky.yml', RACE.replace('name: race', 'name: flaky').replace('  deterministic: false\n', ''))
})

afterAll(removeFixtureDirs)

describe('expectScenario and toPassLoadrace agree with loadrace sweep', () => {
  it('a scenario expected to diverge passes when the race is found (expectDeterministic, verdict only, throws)', async () => {
    const report = await here(() => expectScenario('checks/race.yml'))
    expect(report.verdict).toBe('divergent')
    await here(() => expect('checks/race.yml').toPassLoadrace())
    await expect(here(() => expectDeterministic('checks/race.yml'))).rejects.toThrow(/blame: tool-t[ab] ↔ tool-t[ab]/)
  })

  it('a failure carries exactly the lines the command prints for it', async () => {
    const failure = await here(() => expectScenario('checks/flaky.yml')).then(() => undefined, (error: unknown) => error)
    expect(failure).toBeInstanceOf(ScenarioFailure)
    const message = (failure as ScenarioFailure).message.split('\n')
    expect(message[0]).toBe('loadrace: checks/flaky.yml')
    expect(message.slice(1)).toEqual(await cliLines('checks/flaky.yml'))
    expect(message.join('\n')).toContain("replay (before the swap): npx loadrace replay 'flaky@registration-order:")
    const matcher = await here(() => expect('checks/flaky.yml').toPassLoadrace()).then(() => undefined, (error: unknown) => error)
    expect((matcher as Error).message).toBe((failure as ScenarioFailure).message)
    await here(() => expect('checks/flaky.yml').not.toPassLoadrace())
  })

  it('checks the golden: written locally, missing under CI, a mismatch fails with the diff; vitest -u rewrites it', async () => {
    await expect(here(() => expectScenario('checks/pair.yml', { ci: true }))).rejects.toThrow(`no golden pinned for this scenario at ${join('goldens', 'pair.json')} (run with --update-goldens to write it)`)
    const written = await here(() => expectScenario('checks/pair.yml', { ci: false }))
    expect(written.golden).toBe('written')
    expect(written.goldenFile).toBe(join('goldens', 'pair.json'))
    const golden = join(dir.root, 'goldens', 'pair.json')
    await writeFile(golden, (await readFile(golden, 'utf8')).replace('"completed"', '"turn-error"'))
    const failure = await here(() => expectScenario('checks/pair.yml')).then(() => undefined, (error: unknown) => error) as ScenarioFailure
    expect(failure.message).toContain('accept it with --update-goldens (-u):')
    expect(failure.message).toContain('-  "outcome": "turn-error",')
    expect(failure.message.split('\n').slice(1)).toEqual(await cliLines('checks/pair.yml'))
    // The matcher under `vitest -u`: snapshots are being updated, so is the golden.
    const updating = { snapshotState: { snapshotUpdateState: 'all' } }
    const result = await here(() => loadraceMatchers.toPassLoadrace.call(updating, 'checks/pair.yml'))
    expect(result.pass).toBe(true)
    expect(await readFile(golden, 'utf8')).toContain('"outcome": "completed"')
  })

  it('the matcher asks for a file path', async () => {
    const result = await loadraceMatchers.toPassLoadrace.call({}, 42)
    expect(result).toMatchObject({ pass: false })
    expect(result.message()).toBe('toPassLoadrace: expected the path of a scenario file, got number')
  })
})

describe('the settings of a check', () => {
  it('are the sweep\'s, by the same names and with the same defaults', () => {
    const settings = checkSettings({}, {})
    expect(settings).toMatchObject({ strategy: DEFAULTS.strategy, budget: DEFAULTS.budget, seed: DEFAULTS.seed, updateGoldens: false, keepWorkdirs: false, ci: false })
    expect(settings).toEqual(resolveSettings({ command: 'sweep', options: ['strategy', 'budget', 'seed', 'depth', 'strength', 'variant', 'target', 'timeout', 'goldens', 'update-goldens', 'keep-workdirs'], env: {} }))
    expect(checkSettings({ strategy: 'pct', budget: 3, seed: 's', depth: 2, strength: 2, variant: 'registration-order', target: 'dsh', timeoutMs: 400, goldens: 'g', updateGoldens: true, keepWorkdirs: true, ci: true }, {}))
      .toMatchObject({ strategy: 'pct', budget: 3, seed: 's', depth: 2, strength: 2, variant: 'registration-order', target: 'dsh', timeoutMs: 400, goldens: 'g', updateGoldens: true, keepWorkdirs: true, ci: true })
    // The old name of the timeout still works.
    expect(checkSettings({ timeout: 300 }, {}).timeoutMs).toBe(300)
  })

  it('come from the LOADRACE_* variables where the options say nothing, and the options beat them', () => {
    const env = { LOADRACE_BUDGET: '9', LOADRACE_SEED: 'env', LOADRACE_UPDATE_GOLDENS: 'yes', CI: '1' }
    expect(checkSettings({}, env)).toMatchObject({ budget: 9, seed: 'env', updateGoldens: true, ci: true })
    expect(checkSettings({ budget: 4, updateGoldens: false, ci: false }, env)).toMatchObject({ budget: 4, seed: 'env', updateGoldens: false, ci: false })
    // A variable of a setting a check does not have is not read.
    expect(checkSettings({}, { LOADRACE_SHARD: '1/2', LOADRACE_WORKERS: 'bad' }).shard).toBeUndefined()
  })

  it('refuse a bad option, naming it', () => {
    expect(() => checkSettings({ budget: 0 }, {})).toThrow('options.budget: expected a whole number ≥ 1, got "0"')
    expect(() => checkSettings({}, { LOADRACE_STRATEGY: 'all' })).toThrow('LOADRACE_STRATEGY: expected one of auto, exhaustive, random, pct, cover, applies, got "all"')
  })
})
