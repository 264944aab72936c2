/**
 * From a separate user project: a folder of its own whose node_modules holds
 * loadrace and the published dsh packages (symlinks to the installed ones,
 * so Node resolves one cordis), and a scenario naming real plugins by
 * package specifier, swept with loadrace's command from that folder.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../support/fixture-dirs.ts'
import { readReport, runCli } from '../support/cli.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const PACKAGES = ['dsh-goal', 'dsh-tool-goal', 'dsh-jobs-local', 'dsh-tool-jobs', 'dsh-tool-todo']

let project: FixtureDir

const entries = (withJobs: boolean) => `app: none
plugins:
  - { id: goal, module: '@deepseek-ai/dsh-goal' }
  - { id: tool-goal, module: '@deepseek-ai/dsh-tool-goal' }
${withJobs ? "  - { id: jobs, module: '@deepseek-ai/dsh-jobs-local' }\n" : ''}  - { id: tool-jobs, module: '@deepseek-ai/dsh-tool-jobs' }
  - { id: tool-todo, module: '@deepseek-ai/dsh-tool-todo', config: { allowParallelInProgress: true } }
expect:
  outcome: completed
  tools: [create_goal, get_goal, job_kill, job_list, job_output, todo_write, update_goal]
`

beforeAll(async () => {
  project = await fixtureDir()
  await writeFile(join(project.root, 'package.json'), JSON.stringify({ name: 'my-agent', private: true, type: 'module' }))
  await mkdir(join(project.root, 'node_modules/@deepseek-ai'), { recursive: true })
  await symlink(ROOT, join(project.root, 'node_modules/loadrace'), 'dir')
  for (const name of PACKAGES) await symlink(join(ROOT, 'node_modules/@deepseek-ai', name), join(project.root, 'node_modules/@deepseek-ai', name), 'dir')
  await project.write('loadrace/agent.yml', entries(true))
  await project.write('loadrace/missing-provider.yml', entries(false))
})

afterAll(removeFixtureDirs)

/** Runs `node node_modules/loadrace/bin/loadrace.js …args` in the project. */
function loadrace(args: string[]) {
  return runCli(args, { cwd: project.root, bin: join(project.root, 'node_modules/loadrace/bin/loadrace.js') })
}

describe('a user project with real dsh plugins', () => {
  it('sweeps green on --target dsh with the exact tool list', async () => {
    const run = await loadrace(['sweep', 'loadrace/agent.yml', '--target', 'dsh', '--budget', '12', '--workers', '1', '--report', 'out'])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const [scenario] = (await readReport(join(project.root, 'out'))).scenarios
    expect(scenario).toMatchObject({ name: 'agent', target: 'dsh', verdict: 'deterministic', passed: true, explored: 12 })
    expect(scenario!.outputs.map(output => output.tools)).toEqual([['create_goal', 'get_goal', 'job_kill', 'job_list', 'job_output', 'todo_write', 'update_goal']])
  })

  it('fails when one plugin\'s service provider is left out, naming that entry and the service', async () => {
    const run = await loadrace(['sweep', 'loadrace/missing-provider.yml', '--target', 'dsh', '--budget', '12', '--workers', '1', '--report', 'missing'])
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/^✗\s+missing-provider\s+deterministic \(completed\)/m)
    expect(run.stdout).toMatch(/^ {4}entry tool-jobs \(waiting for service: jobs\) never became active \(12 of 12 interleavings, first missing-provider@canonical\+dsh~node22:[a-z,-]+\); list it under expect\.inactive if that is intended$/m)
    expect(run.stdout).toMatch(/^ {4}expected tools \[create_goal, get_goal, job_kill, job_list, job_output, todo_write, update_goal\], got \[create_goal, get_goal, todo_write, update_goal\]/m)
  })
})
