import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { main } from '../../../harness/cli/main.ts'
import { GOLDEN_WITHHELD } from '../../../harness/judge/judge.ts'
import { captured, exists, inDir, readReport } from '../../support/cli.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'

/**
 * A golden pins the bytes of a scenario that met its expectation, never those
 * of a failing configuration: otherwise, once the configuration is fixed, the
 * next sweep fails on the golden the failing one wrote.
 */

afterAll(removeFixtureDirs)

/** A deterministic scenario whose outcome is not the one it expects (an entry whose apply throws: a load error). */
const WRONG_OUTCOME = `name: wrong-outcome
app: none
plugins:
  - id: tool-a
    tools: [a]
  - id: broken
    fault: apply-throws
expect:
  outcome: completed
`

/** The same scenario, fixed: the broken entry is gone. */
const FIXED_OUTCOME = WRONG_OUTCOME.replace('  - id: broken\n    fault: apply-throws\n', '')

/** A deterministic scenario whose toolOrder names a tool nobody registers: every turn fails. */
const GHOST_TOOL = `name: ghost-tool
app: none
config:
  toolOrder: [ghost, <unlisted-tools>]
plugins:
  - id: tool-a
    tools: [a]
expect:
  outcome: completed
`

/** Runs `loadrace sweep FILE … --report r --goldens g` in `dir`; its exit code, what it printed, and the report entry. */
async function sweep(dir: FixtureDir, file: string, workers: number, ...extra: string[]) {
  const out = captured()
  const code = await inDir(dir.root, () => main(['sweep', file, '--workers', String(workers), '--report', 'r', '--goldens', 'g', ...extra], out.cli))
  const entry = (await readReport(join(dir.root, 'r'))).scenarios[0]!
  return { code, stdout: out.stdout(), entry }
}

describe.each([1, 2])('a golden is written only from a scenario that met its expectation (--workers %i)', (workers) => {
  it('a failing first sweep writes no golden and says so, with its path; fixed, the next sweep writes it and passes', async () => {
    const dir = await fixtureDir()
    await dir.write('s.yml', WRONG_OUTCOME)
    const golden = join(dir.root, 'g', 'wrong-outcome.json')
    const failed = await sweep(dir, 's.yml', workers)
    expect(failed.code).toBe(1)
    expect(failed.entry.verdict).toBe('deterministic')
    expect(failed.entry.golden).toBe('withheld')
    expect(failed.entry.goldenFile).toBe(join('g', 'wrong-outcome.json'))
    expect(failed.entry.goldenWithheld).toBe(GOLDEN_WITHHELD)
    expect(failed.stdout).toContain(`    did not write golden ${join('g', 'wrong-outcome.json')}: ${GOLDEN_WITHHELD}\n`)
    expect(failed.stdout).not.toContain('wrote golden')
    expect(await exists(golden)).toBe(false)

    await dir.write('s.yml', FIXED_OUTCOME)
    const fixed = await sweep(dir, 's.yml', workers)
    expect(fixed.entry.problems).toEqual([])
    expect(fixed.code).toBe(0)
    expect(fixed.entry.golden).toBe('written')
    expect(fixed.stdout).toContain(`    wrote golden ${join('g', 'wrong-outcome.json')}\n`)
    expect(JSON.parse(await readFile(golden, 'utf8'))).toMatchObject({ scenario: 'wrong-outcome', outcome: 'completed' })
  })

  it('a toolOrder naming a missing tool: no golden from the failing turns, not even with -u', async () => {
    const dir = await fixtureDir()
    await dir.write('s.yml', GHOST_TOOL)
    const first = await sweep(dir, 's.yml', workers)
    expect(first.code).toBe(1)
    expect(first.entry.problems.join('\n')).toContain('expected outcome completed, got turn-error')
    expect(first.entry.golden).toBe('withheld')
    expect(await exists(join(dir.root, 'g', 'ghost-tool.json'))).toBe(false)
    const updated = await sweep(dir, 's.yml', workers, '-u')
    expect(updated.code).toBe(1)
    expect(updated.entry.golden).toBe('withheld')
    expect(await exists(join(dir.root, 'g', 'ghost-tool.json'))).toBe(false)
  })

  it('-u on a failing scenario leaves the pinned golden as it is, and shows how the bytes differ', async () => {
    const dir = await fixtureDir()
    await dir.write('s.yml', FIXED_OUTCOME)
    expect((await sweep(dir, 's.yml', workers)).code).toBe(0)
    const golden = join(dir.root, 'g', 'wrong-outcome.json')
    const pinned = await readFile(golden, 'utf8')
    await dir.write('s.yml', WRONG_OUTCOME)
    const updated = await sweep(dir, 's.yml', workers, '-u')
    expect(updated.code).toBe(1)
    expect(updated.entry.golden).toBe('withheld')
    expect(updated.entry.goldenDiff).toContain('+  "outcome": "load-error",')
    expect(updated.stdout).toContain('diff against the golden (golden → this sweep):\n')
    expect(await readFile(golden, 'utf8')).toBe(pinned)
    // Without -u the same sweep is a plain mismatch against what is pinned.
    const compared = await sweep(dir, 's.yml', workers)
    expect(compared.entry.golden).toBe('mismatch')
    expect(await readFile(golden, 'utf8')).toBe(pinned)
  })

  it('a missing golden under CI names its path', async () => {
    const dir = await fixtureDir()
    await dir.write('s.yml', FIXED_OUTCOME)
    const out = captured({ CI: 'true' })
    expect(await inDir(dir.root, () => main(['sweep', 's.yml', '--workers', String(workers), '--report', 'r', '--goldens', 'g'], out.cli))).toBe(1)
    const entry = (await readReport(join(dir.root, 'r'))).scenarios[0]!
    expect(entry.golden).toBe('missing')
    expect(entry.problems).toContain(`no golden pinned for this scenario at ${join('g', 'wrong-outcome.json')} (run with --update-goldens to write it)`)
  })
})
