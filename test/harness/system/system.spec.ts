import { realpathSync } from 'node:fs'
import { cp } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { ownSystem, projectSystem, SystemError } from '../../../harness/system/system.ts'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { ScenarioError } from '../../../harness/scenario/errors.ts'
import { runInterleaving } from '../../../harness/runtime/interleaving.ts'
import { scheduledClasses } from '../../../harness/runtime/scheduled-loader.ts'
import type { Target } from '../../../harness/targets/target.ts'
import { fixtureDir, minimal, removeFixtureDirs } from '../../support/fixture-dirs.ts'
import { link, ownPackage, pnpmWorkspace } from '../../support/workspaces.ts'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))

afterAll(removeFixtureDirs)

describe('the system under test, found from the project', () => {
  it('is the workspace\'s own cordis, loader and include in a pnpm layout, reached through its links', async () => {
    const dir = await fixtureDir()
    const ws = await pnpmWorkspace(dir)
    const system = await projectSystem(ws.app)
    expect(system.own).toBe(false)
    expect(system.project).toBe(realpathSync(ws.root))
    expect(system.packages.include.dir).toBe(realpathSync(ws.include))
    // app/ has no cordis or loader of its own: they are the ones the include resolves.
    expect(system.packages.loader.dir).toBe(realpathSync(ws.loader))
    expect(system.packages.cordis.dir).toBe(realpathSync(ws.cordis))
    const own = await ownSystem()
    expect(system.cordis.Context).not.toBe(own.cordis.Context)
    expect(system.describe().packages.map(item => [item.name, item.path])).toEqual([
      ['@deepseek-ai/cordis', realpathSync(ws.cordis)],
      ['@deepseek-ai/cordis-plugin-loader', realpathSync(ws.loader)],
      ['@deepseek-ai/cordis-plugin-include', realpathSync(ws.include)],
    ])
  })

  it('is one system per set of packages: found again from another folder of the project, it is the same object', async () => {
    const dir = await fixtureDir()
    const ws = await pnpmWorkspace(dir)
    expect(await projectSystem(ws.app)).toBe(await projectSystem(join(ws.app, '.')))
  })

  it('is loadrace\'s own where the project has no cordis, and in loadrace\'s own checkout', async () => {
    const dir = await fixtureDir()
    await dir.write('package.json', JSON.stringify({ name: 'plain', private: true }))
    const own = await ownSystem()
    expect(await projectSystem(dir.root)).toBe(own)
    expect(await projectSystem(join(ROOT, 'scenarios'))).toBe(own)
    expect(own.own).toBe(true)
    expect(own.packages.cordis.dir).toBe(realpathSync(ownPackage('@deepseek-ai/cordis')))
  })

  it('stays inside the project: a cordis in the node_modules of a folder enclosing the workspace is not the workspace\'s', async () => {
    const dir = await fixtureDir()
    // The enclosing folder has another cordis installed (as a checkout nested in another project would).
    await dir.write('package.json', JSON.stringify({ name: 'enclosing', private: true }))
    await link(dir.root, '@deepseek-ai/cordis', ownPackage('@deepseek-ai/cordis'))
    const ws = await pnpmWorkspace(dir, 'nested/ws')
    const system = await projectSystem(ws.app)
    expect(system.packages.cordis.dir).toBe(realpathSync(ws.cordis))
  })

  it('refuses a loader that resolves another cordis than the project\'s, naming both files', async () => {
    const dir = await fixtureDir()
    const ws = await pnpmWorkspace(dir)
    // app/ links the workspace's cordis, and a second loader of the workspace that resolves loadrace's cordis.
    const loader = join(ws.root, 'vendor/loader-two')
    await cp(ws.loader, loader, { recursive: true, verbatimSymlinks: true, filter: source => !source.endsWith('node_modules/@deepseek-ai/cordis') })
    await link(loader, '@deepseek-ai/cordis', ownPackage('@deepseek-ai/cordis'))
    await link(ws.app, '@deepseek-ai/cordis', ws.cordis)
    await link(ws.app, '@deepseek-ai/cordis-plugin-loader', loader)
    const error = await projectSystem(ws.app).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(SystemError)
    expect((error as Error).message).toMatch(/^@deepseek-ai\/cordis-plugin-loader at \S+ resolves @deepseek-ai\/cordis to \S+node_modules\/@deepseek-ai\/cordis\/lib\/index\.js, not to the project's \S+ws\/vendor\/cordis\/lib\/index\.js: two cordis copies cannot share one loader$/)
  })

  it('gives a scenario in the workspace that system, and a scenario of a half system one error line naming the file', async () => {
    const dir = await fixtureDir()
    const ws = await pnpmWorkspace(dir)
    const scenario = await loadScenario(await dir.write('ws/app/s.yml', minimal('target: dsh\napp: none\n')))
    expect(scenario.system).toBe(await projectSystem(ws.app))
    const half = await fixtureDir()
    await half.write('package.json', JSON.stringify({ name: 'half', private: true }))
    await half.write('node_modules/@deepseek-ai/cordis/package.json', JSON.stringify({ name: '@deepseek-ai/cordis', version: '4.0.0', type: 'module', exports: { '.': './index.js' } }))
    await half.write('node_modules/@deepseek-ai/cordis/index.js', 'export class Context {}\n')
    const file = await half.write('s.yml', minimal())
    const error = await loadScenario(file).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(ScenarioError)
    expect((error as ScenarioError).line).toContain(`${file}: (file): the project at ${realpathSync(half.root)} has @deepseek-ai/cordis 4.0.0`)
  })
})

describe('an interleaving on the project\'s system', () => {
  it('runs on the project\'s cordis: its root context, and a loader and include that subclass the project\'s own classes', async () => {
    const dir = await fixtureDir()
    const ws = await pnpmWorkspace(dir)
    // A plugin of the workspace records what it was handed, by the workspace's own classes.
    await link(ws.app, '@deepseek-ai/cordis', ws.cordis)
    await dir.write('ws/app/probe.mjs', `import { Context } from '@deepseek-ai/cordis'
export default {
  name: 'probe',
  apply(ctx) {
    globalThis.__loadraceProbe = { isContext: ctx instanceof Context, loader: ctx.get('loader')?.constructor }
  },
}
`)
    const scenario = await loadScenario(await dir.write('ws/app/s.yml', 'target: dsh\napp: none\nplugins:\n  - id: probe\n    module: ./probe.mjs\nexpect: { outcome: completed }\n'))
    const system = scenario.system
    const bare: Target = {
      name: 'dsh',
      unsupported: () => undefined,
      system: async project => project,
      describe: project => project.describe(),
      mount: () => ({
        entries: [],
        toolService: 'tools',
        registerTool: () => {},
        hasTool: () => false,
        bootProblem: () => undefined,
        runTurns: async () => ({ events: [], requests: [], header: undefined, live: [] }),
      }),
    }
    const result = await runInterleaving(scenario, bare, ['probe'])
    expect(result.projection.outcome).toBe('completed')
    const seen = (globalThis as { __loadraceProbe?: { isContext: boolean, loader: { prototype: object } } }).__loadraceProbe!
    expect(seen.isContext).toBe(true)
    expect(seen.loader.prototype).toBeInstanceOf(system.loader.Loader)
    expect(Object.getPrototypeOf(seen.loader)).toBe(system.loader.Loader)
    expect(scheduledClasses(system).Include.prototype).toBeInstanceOf(system.include.Include)
    expect(system.loader.Loader).not.toBe((await ownSystem()).loader.Loader)
  })
})
