import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../harness/cli/main.ts'
import type { Report } from '../../../harness/report/sweep-report.ts'
import { captured, inDir, PAIR, RACE, readReport } from '../../support/cli.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'

/** `skipped` is a verdict of its own: never `passed`, counted apart everywhere, and a sweep of nothing but skips is not green. */

const REASON = 'the published packages implement only the canonical policy'

let dir: FixtureDir

beforeAll(async () => {
  dir = await fixtureDir()
  await dir.write('pair.yml', PAIR)
  await dir.write('race.yml', RACE)
})

afterAll(removeFixtureDirs)

async function run(args: readonly string[]) {
  const out = captured()
  const code = await inDir(dir.root, () => main(args, out.cli))
  return { code, stdout: out.stdout(), stderr: out.stderr() }
}

function read(report: string, file: string): Promise<string> {
  return readFile(join(dir.root, report, file), 'utf8')
}

describe('a sweep in which nothing ran', () => {
  let result: Awaited<ReturnType<typeof run>>
  let report: Report

  beforeAll(async () => {
    // `race` uses the registration-order variant, which the published packages do not have.
    result = await run(['sweep', 'race.yml', '--target', 'dsh', '--workers', '1', '--report', 'nothing'])
    report = await readReport(join(dir.root, 'nothing'))
  })

  it('exits 1 saying nothing ran, how many were skipped and why', () => {
    expect(result.code).toBe(1)
    expect(result.stderr).toBe(`loadrace: nothing ran: 1 skipped (${REASON}: race)\n`)
  })

  it('reports the scenario as skipped with its reason and no passed, counted apart', () => {
    const [entry] = report.scenarios
    expect(entry).toMatchObject({ name: 'race', verdict: 'skipped', skipped: REASON, explored: 0, outputs: [] })
    expect(entry).not.toHaveProperty('passed')
    expect(report.summary).toMatchObject({ scenarios: 1, passed: 0, failed: 0, skipped: 1 })
  })

  it('says skipped in the terminal, Markdown, JUnit and HTML', async () => {
    expect(result.stdout).toMatch(/^-\s+race\s+skipped: the published packages implement only the canonical policy$/m)
    expect(result.stdout).toContain('0 passed, 1 skipped of 1 scenario')
    const markdown = await read('nothing', 'report.md')
    expect(markdown).toMatch(/^\| \*\*race\*\*.*\| skipped \|.*\| ⏭️ skipped \|$/m)
    expect(markdown).toContain(`- race (dsh · registration-order): ${REASON}`)
    const junit = await read('nothing', 'junit.xml')
    expect(junit).toContain('tests="1" failures="0" errors="0" skipped="1"')
    expect(junit).toContain(`<skipped message="${REASON}"/>`)
    const html = await read('nothing', 'report.html')
    expect(html).toContain('<span class="badge skipped">skipped</span>')
    expect(html).toContain(`<div class="place">${REASON}</div>`)
  })
})

describe('a sweep in which some scenarios ran', () => {
  it('exits 0 and counts the skipped scenario apart from the passed one', async () => {
    const result = await run(['sweep', 'pair.yml', 'race.yml', '--target', 'dsh', '--workers', '1', '--report', 'some'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const report = await readReport(join(dir.root, 'some'))
    expect(report.summary).toMatchObject({ scenarios: 2, passed: 1, failed: 0, skipped: 1 })
    expect(report.scenarios.map(entry => [entry.name, entry.verdict, entry.passed])).toEqual([
      ['pair', 'deterministic', true],
      ['race', 'skipped', undefined],
    ])
  })
})

describe('a scenario whose requires: this machine lacks', () => {
  const ABSENT = 'loadrace-no-such-command-7f3a'

  it('is skipped with the reason everywhere, never run, and a sweep beside a passing scenario exits 0', async () => {
    await dir.write('needs.yml', PAIR.replace('name: pair', `name: needs\nrequires: { commands: [${ABSENT}] }`))
    await dir.write('has.yml', PAIR.replace('name: pair', `name: has\nrequires: { commands: [node], platforms: [${process.platform}] }`))
    const result = await run(['sweep', 'needs.yml', 'has.yml', '--workers', '1', '--report', 'requires', '--goldens', 'requires-goldens'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const reason = `it requires ${ABSENT} on PATH, and it is not found there`
    const report = await readReport(join(dir.root, 'requires'))
    expect(report.scenarios.map(entry => [entry.name, entry.verdict, entry.passed, entry.explored])).toEqual([
      ['has', 'deterministic', true, 2],
      ['needs', 'skipped', undefined, 0],
    ])
    expect(report.scenarios[1]).toMatchObject({ skipped: reason, problems: [] })
    expect(report.summary).toMatchObject({ scenarios: 2, passed: 1, failed: 0, skipped: 1 })
    expect(result.stdout).toMatch(new RegExp(`^-\\s+needs\\s+skipped: ${reason}$`, 'm'))
    expect(await read('requires', 'report.md')).toContain(`- needs (reference · canonical): ${reason}`)
    expect(await read('requires', 'junit.xml')).toContain(`<skipped message="${reason}"/>`)
  })
})

describe('loadrace merge', () => {
  it('carries skipped entries through, as skipped', async () => {
    for (const index of [1, 2]) {
      const shard = await run(['sweep', 'pair.yml', 'race.yml', '--target', 'dsh', '--strategy', 'exhaustive', '--shard', `${index}/2`, '--workers', '1', '--report', `shard-${index}`, '--format', 'json'])
      expect(shard.code).toBe(0)
    }
    const merged = await run(['merge', 'shard-1', 'shard-2', '--report', 'merged', '--format', 'json'])
    expect(merged.stderr).toBe('')
    expect(merged.code).toBe(0)
    const report = await readReport(join(dir.root, 'merged'))
    const race = report.scenarios.find(entry => entry.name === 'race')
    expect(race).toMatchObject({ verdict: 'skipped', skipped: REASON })
    expect(race).not.toHaveProperty('passed')
    expect(report.summary).toMatchObject({ scenarios: 2, passed: 1, failed: 0, skipped: 1 })
  })

  it('exits 1 when the merged shards ran nothing', async () => {
    for (const index of [1, 2]) {
      expect((await run(['sweep', 'race.yml', '--target', 'dsh', '--shard', `${index}/2`, '--workers', '1', '--report', `idle-${index}`, '--format', 'json'])).code).toBe(1)
    }
    const merged = await run(['merge', 'idle-1', 'idle-2', '--report', 'idle-merged', '--format', 'json'])
    expect(merged.code).toBe(1)
    expect(merged.stderr).toBe(`loadrace: nothing ran: 1 skipped (${REASON}: race)\n`)
  })
})

describe('the CI sweep of the bundled scenarios against dsh (.ci/run)', () => {
  it('passes, and reports the scenarios the published packages cannot run as skipped', async () => {
    const out = captured({ CI: 'true' })
    const report = join(dir.root, 'ci-dsh')
    const code = await main(['sweep', 'scenarios', '--target', 'dsh', '--workers', '1', '--report', report, '--format', 'json'], out.cli)
    expect(out.stderr()).toBe('')
    expect(code).toBe(0)
    const written = await readReport(report)
    const skipped = written.scenarios.filter(entry => entry.verdict === 'skipped')
    expect(skipped.map(entry => entry.name).sort()).toEqual([
      'forwarding-acp-agent', 'forwarding-agent-core', 'forwarding-stdio-agent', 'registration-order-policy', 'services-as-entries',
      'tool-order-omitted-chain', 'weights-distinct',
    ])
    for (const entry of skipped) {
      expect(entry.skipped, entry.name).toMatch(/^the (RFC-era app chain|published packages implement only)/)
      expect(entry, entry.name).not.toHaveProperty('passed')
    }
    expect(written.summary).toMatchObject({ scenarios: written.scenarios.length, skipped: 7, failed: 0, passed: written.scenarios.length - 7 })
    expect(out.stdout()).toContain(`${written.scenarios.length - 7} passed, 7 skipped of ${written.scenarios.length} scenarios`)
  }, 120_000)
})
