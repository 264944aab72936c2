import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { goldensFolderOf, projectRootOf } from '../../../harness/goldens/location.ts'
import { obsoleteGoldens } from '../../../harness/goldens/obsolete.ts'
import { exists, PAIR, readReport, runCli } from '../../support/cli.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'

let dir: FixtureDir

beforeAll(async () => {
  dir = await fixtureDir()
})

afterAll(removeFixtureDirs)

/** A project folder (with a package.json) inside the fixture. */
async function project(name: string): Promise<string> {
  await dir.write(`${name}/package.json`, '{"name":"user-project","private":true}\n')
  return join(dir.root, name)
}

describe('where a golden lives', () => {
  it('the bundled layout: scenarios/ and scenarios/faults/ share goldens/ at the root', async () => {
    const root = await project('bundled')
    await mkdir(join(root, 'goldens'))
    expect(goldensFolderOf('scenarios/ci-flake.yml', undefined, root)).toBe('goldens')
    expect(goldensFolderOf('scenarios/faults/leak.yml', undefined, root)).toBe('goldens')
    // This checkout itself.
    expect(goldensFolderOf('scenarios/faults/leak.yml')).toBe('goldens')
  })

  it('a new project: goldens/ beside the scenario folder, wherever it is, and found again from below', async () => {
    const root = await project('fresh')
    expect(goldensFolderOf('checks/loadrace/a.yml', undefined, root)).toBe(join('checks', 'goldens'))
    expect(goldensFolderOf(join(root, 'checks/loadrace/a.yml'), undefined, '/nonexistent-cwd')).toBe(join(root, 'checks', 'goldens'))
    await mkdir(join(root, 'checks', 'goldens'), { recursive: true })
    // A subfolder's scenarios use the goldens folder its parent folder's scenarios created.
    expect(goldensFolderOf('checks/loadrace/faults/b.yml', undefined, root)).toBe(join('checks', 'goldens'))
    // A scenario in the project root keeps its goldens in the root: never above the project.
    expect(goldensFolderOf('top.yml', undefined, root)).toBe('goldens')
    expect(projectRootOf(join(root, 'checks', 'loadrace'))).toBe(root)
  })

  it('--goldens DIR holds every golden; outside any project, goldens/ beside the scenario folder', async () => {
    expect(goldensFolderOf('anywhere/x.yml', 'pinned')).toBe('pinned')
    const loose = join(dir.root, 'loose', 'set', 'x.yml')
    expect(goldensFolderOf(loose, undefined, '/nonexistent-cwd')).toBe(join(dir.root, 'loose', 'goldens'))
  })

  it('sweeping from another directory writes the golden beside the scenario folder and says where', async () => {
    const root = await project('outside')
    await dir.write('outside/checks/pair.yml', PAIR)
    await dir.write('outside/elsewhere/.keep', '')
    const run = await runCli(['sweep', '../checks/pair.yml', '--workers', '1', '--report', 'r'], { cwd: join(root, 'elsewhere') })
    expect(run.code).toBe(0)
    // Outside the working directory, the path is absolute.
    expect(run.stdout).toContain(`    wrote golden ${join(root, 'goldens', 'pair.json')}\n`)
    expect(await exists(join(root, 'goldens', 'pair.json'))).toBe(true)
    expect(await exists(join(root, 'elsewhere', 'goldens'))).toBe(false)
    const entry = (await readReport(join(root, 'elsewhere', 'r'))).scenarios[0]!
    expect(entry.goldenFile).toBe(join(root, 'goldens', 'pair.json'))
    // From the project root, under CI, the same golden matches.
    const again = await runCli(['sweep', 'checks', '--workers', '1', '--report', 'r2'], { cwd: root, env: { CI: 'true' } })
    expect(again.code).toBe(0)
    expect((await readReport(join(root, 'r2'))).scenarios[0]!.golden).toBe('match')
    expect(again.stdout).not.toContain('wrote golden')
  })
})

describe('obsolete goldens', () => {
  it('are judged only against scenarios that could use the folder: unswept scenarios keep theirs', async () => {
    const root = await project('shared')
    await dir.write('shared/scenarios/pair.yml', PAIR)
    await dir.write('shared/scenarios/other.yml', PAIR.replace('name: pair', 'name: other'))
    await dir.write('shared/mine/mine.yml', PAIR.replace('name: pair', '# mine\nname: "mine"'))
    for (const name of ['pair', 'other']) {
      expect((await runCli(['sweep', `scenarios/${name}.yml`, '--workers', '1', '--report', `r-${name}`], { cwd: root })).code).toBe(0)
    }
    expect((await runCli(['sweep', 'mine', '--workers', '1', '--report', 'r-mine'], { cwd: root })).code).toBe(0)
    // Sweeping one folder under CI: the goldens of scenarios/ belong to scenarios that exist.
    const one = await runCli(['sweep', 'mine', '--workers', '1', '--report', 'r-ci'], { cwd: root, env: { CI: 'true' } })
    expect(one.stderr).toBe('')
    expect(one.code).toBe(0)
    expect((await readReport(join(root, 'r-ci'))).obsoleteGoldens).toBeUndefined()
    expect(await obsoleteGoldens([{ name: 'mine', file: 'mine/mine.yml' }], {}, root)).toEqual([])
  })

  it('a golden no scenario has a name for fails a CI sweep, and the headline says so instead of "0 failed"', async () => {
    const root = join(dir.root, 'shared')
    await writeFile(join(root, 'goldens', 'retired.json'), '{}\n')
    const run = await runCli(['sweep', 'mine', '--workers', '1', '--report', 'r-obsolete'], { cwd: root, env: { CI: 'true' } })
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(`loadrace: obsolete golden ${join('goldens', 'retired.json')}: no scenario has this name (delete it, or restore the scenario)\n`)
    expect(run.stdout).toContain('\n1 obsolete golden, 1 passed of 1 scenario · 2 interleavings\n')
    expect(run.stdout).not.toContain('0 failed')
    const report = await readReport(join(root, 'r-obsolete'))
    expect(report.obsoleteGoldens).toEqual([join('goldens', 'retired.json')])
    const markdown = await readFile(join(root, 'r-obsolete', 'report.md'), 'utf8')
    expect(markdown.split('\n')[0]).toBe('# ❌ loadrace: 1 obsolete golden, 1 passed of 1 scenario')
  })

  it('a mismatch says how to accept it, and -u does', async () => {
    const root = join(dir.root, 'shared')
    await rm(join(root, 'goldens', 'retired.json'))
    const golden = join(root, 'goldens', 'mine.json')
    await writeFile(golden, (await readFile(golden, 'utf8')).replace('"completed"', '"turn-error"'))
    const run = await runCli(['sweep', 'mine', '--workers', '1', '--report', 'r-mismatch'], { cwd: root })
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('the canonical projection differs from its golden (accept the new bytes with --update-goldens, or -u)')
    expect(run.stdout).toContain('accept it with --update-goldens (-u):')
    expect(run.stdout).toContain('-  "outcome": "turn-error",')
    const accepted = await runCli(['sweep', 'mine', '-u', '--workers', '1', '--report', 'r-accepted'], { cwd: root, env: { CI: 'true' } })
    expect(accepted.code).toBe(0)
    expect(accepted.stdout).toContain(`wrote golden ${join('goldens', 'mine.json')}`)
    expect(await readFile(golden, 'utf8')).toContain('"outcome": "completed"')
  })
})
