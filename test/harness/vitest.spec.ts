import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../harness/cli/main.ts'
import { expectDeterministic, expectScenario, loadraceMatchers, ScenarioFailure } from '../../harness/vitest.ts'
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
