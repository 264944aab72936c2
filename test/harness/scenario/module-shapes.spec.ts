/**
 * Plugin modules load the same on every host: TypeScript and JavaScript, ESM
 * and CommonJS syntax, in folders whose `package.json` says `"type":
 * "module"`, `"type": "commonjs"`, or that have none (as dsh's own test
 * fixtures are laid out), on this Node and on Node 22 — as `node --import
 * tsx`, the way dsh runs TypeScript, takes them.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readReport, runCli } from '../../support/cli.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'

const TYPES = ['module', 'commonjs', 'none'] as const
const EXTENSIONS = ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'] as const
const SYNTAXES = ['esm', 'cjs'] as const

interface Shape {
  name: string
  type: typeof TYPES[number]
  extension: typeof EXTENSIONS[number]
  syntax: typeof SYNTAXES[number]
}

const SHAPES: Shape[] = TYPES.flatMap(type => EXTENSIONS.flatMap(extension => SYNTAXES.map(syntax => ({ name: `${type}-${extension}-${syntax}`, type, extension, syntax }))))

/**
 * Node's own rules for JavaScript: `.mjs` is always ESM, `.cjs` always
 * CommonJS, and `.js` is ESM under `"type": "module"`; so `module.exports` in an
 * ESM file and `export` in a `.cjs` cannot load. TypeScript files are compiled
 * by tsx, which takes either syntax in any of them (and `export` in a
 * CommonJS-scoped `.js`).
 */
function loads(shape: Shape): boolean {
  if (shape.extension === 'cjs') return shape.syntax === 'cjs'
  if (shape.extension === 'mjs') return shape.syntax === 'esm'
  if (shape.extension === 'js' && shape.type === 'module') return shape.syntax === 'esm'
  return true
}

const PLUGIN = '{ name: \'shape\', inject: [\'tools\'], apply(ctx) { ctx.tools.register({ name: \'shape_tool\', description: \'registered\', parameters: { type: \'object\', properties: {} } }) } }'

let dir: FixtureDir

beforeAll(async () => {
  dir = await fixtureDir()
  for (const shape of SHAPES) {
    if (shape.type !== 'none') await dir.write(`${shape.name}/package.json`, JSON.stringify({ type: shape.type }))
    const typed = shape.extension.endsWith('ts') ? ' as const' : ''
    await dir.write(`${shape.name}/plugin.${shape.extension}`, shape.syntax === 'esm' ? `export default ${PLUGIN}${typed}\n` : `module.exports = ${PLUGIN}\n`)
    const expected = loads(shape) ? '  outcome: completed\n  tools: [shape_tool]\n' : '  outcome: load-error\n  error: importing "./plugin.' + shape.extension + '" failed\n  inactive: [shape]\n'
    await dir.write(`${shape.name}/scenario.yml`, `name: ${shape.name}\napp: none\nplugins:\n  - id: shape\n    module: ./plugin.${shape.extension}\nexpect:\n${expected}`)
  }
})

afterAll(removeFixtureDirs)

describe.each([1, 2])('every module shape loads the same on this Node and on Node 22 (--workers %i)', (workers) => {
  it('each scenario meets the expectation its shape implies, with the same bytes on both hosts', async () => {
    const report = `report-${workers}`
    const run = await runCli(['sweep', '.', '--hosts', 'current,node22', '--workers', String(workers), '--report', report, '--goldens', `goldens-${workers}`], { cwd: dir.root })
    const scenarios = (await readReport(join(dir.root, report))).scenarios
    expect(scenarios.map(scenario => scenario.name).sort()).toEqual(SHAPES.map(shape => shape.name).sort())
    for (const scenario of scenarios) {
      const shape = SHAPES.find(candidate => candidate.name === scenario.name)!
      expect({ name: scenario.name, verdict: scenario.verdict, problems: scenario.problems, hosts: scenario.hosts })
        .toEqual({ name: shape.name, verdict: 'deterministic', problems: [], hosts: ['current', 'node22'] })
      expect(scenario.outcome).toBe(loads(shape) ? 'completed' : 'load-error')
    }
    expect(run.code).toBe(0)
  })
})
