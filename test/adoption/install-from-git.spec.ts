/**
 * The README's other two starts, each in a folder of its own: installing
 * loadrace from a git URL into a fresh project (a repository made from this
 * working tree stands in for the published one), and working on loadrace in
 * a fresh checkout — clone, install, the main job.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHECKOUT, follow, installScriptsOf, repositoryOfWorkingTree, shell, type ShellRun } from '../support/follow-readme.ts'
import { commandsOf, documentationPages, FOLLOWED_SECTIONS, followedSteps, NOT_FOLLOWED, sectionOf, stepsOf } from '../support/readme-steps.ts'

const MINUTES = 60_000
const manifest = JSON.parse(await readFile(join(CHECKOUT, 'package.json'), 'utf8')) as { version: string }
const pages = documentationPages(CHECKOUT)
const readme = pages.get('README.md')!

let work: string
let repository: string

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'loadrace-adoption-git-'))
  repository = await repositoryOfWorkingTree()
}, 2 * MINUTES)

afterAll(async () => {
  for (const dir of [work, repository]) if (dir !== undefined) await rm(dir, { recursive: true, force: true })
})

/** Follows the followed section `heading` from `cwd`, checking it is followed where `where` says. */
async function followSection(heading: string, where: string, cwd: string, outputs?: Map<string, ShellRun>) {
  const section = FOLLOWED_SECTIONS.find(candidate => candidate.heading === heading)!
  expect(section.in).toBe(where)
  const steps = followedSteps(pages, section)
  const result = await follow(steps.filter(step => step.kind !== 'command' || NOT_FOLLOWED[step.line] === undefined), {
    cwd,
    substitute: { '<loadrace repository>': `file://${repository}` },
    onRun: (line, run) => outputs?.set(line, run),
  })
  expect(result.ran).toEqual(commandsOf(steps).filter(line => NOT_FOLLOWED[line] === undefined))
  return result
}

describe('the README\'s other starts', () => {
  it('the git URL install, as written: npm builds loadrace from the clone, and runs no script of it in the project', async () => {
    const project = join(work, 'my-project')
    await mkdir(project)
    await writeFile(join(project, 'package.json'), '{"name":"my-project","private":true,"type":"module"}\n')
    const outputs = new Map<string, ShellRun>()
    await followSection('From a git URL', 'a fresh project, installed from a git URL', project, outputs)
    expect(outputs.get('npx loadrace --version')!.stdout).toBe(`loadrace ${manifest.version}\n`)
    const install = outputs.get('npm i -D git+<loadrace repository>')!
    expect(install.stdout + install.stderr).not.toMatch(/loadrace@/)
    expect(await installScriptsOf(project)).toEqual([])
    const installed = JSON.parse(await readFile(join(project, 'node_modules', 'loadrace', 'package.json'), 'utf8')) as { license?: string }
    expect(installed.license).toBe('MIT')
    // The package npm built from the clone works: the quick start's first scenario sweeps green.
    const [first] = stepsOf(sectionOf(readme, 'Quick start'))
    expect(first).toMatchObject({ kind: 'file', path: 'scenarios/first.yml' })
    if (first?.kind !== 'file') return
    await mkdir(join(project, 'scenarios'))
    await writeFile(join(project, first.path), first.content)
    const sweep = await shell('npx loadrace sweep', project)
    expect(sweep.code, sweep.stdout + sweep.stderr).toBe(0)
    expect(sweep.stdout).toMatch(/^✓ {2}first {2}deterministic \(completed\)/m)
  }, 8 * MINUTES)

  it('working on loadrace, as written: a fresh checkout installs and sweeps every bundled scenario green', async () => {
    const beside = join(work, 'contributor')
    await mkdir(beside)
    const { cwd } = await followSection('Working on loadrace', 'a fresh checkout', beside)
    expect(cwd).toBe(join(beside, 'loadrace'))
    const report = JSON.parse(await readFile(join(cwd, 'reports', 'latest', 'report.json'), 'utf8')) as { complete: boolean, summary: { failed: number, passed: number } }
    expect(report).toMatchObject({ complete: true, summary: { failed: 0 } })
    expect(report.summary.passed).toBeGreaterThan(20)
    // npm ci left the Node the checkout's scripts run on as it is.
    expect((await shell('npm exec -- node --version', cwd)).stdout.trim()).toBe(process.version)
  }, 10 * MINUTES)
})
