import { afterAll, describe, expect, it } from 'vitest'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { ScenarioError } from '../../../harness/scenario/errors.ts'
import { sweep } from '../../../harness/sweep/sweep.ts'
import { inProcessRunner } from '../../../harness/runners/runner.ts'
import { parseToken } from '../../../harness/token.ts'
import { resolveSettings } from '../../../harness/settings/resolve.ts'
import type { TargetDefinition } from '../../../harness/targets/definition.ts'
import { loadTarget, registerTarget, targetNamed, targetNames } from '../../../harness/targets/registry.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)

/** A third target, made in the test alone: the reference under another name, registered through the registry's one function. */
const mirror: TargetDefinition = {
  ...targetNamed('reference'),
  name: 'mirror',
  goldens: false,
  compared: false,
  load: async () => ({ ...await loadTarget('reference'), name: 'mirror' }),
}

const SCENARIO = `target: mirror
app: none
plugins:
  - id: alpha
    tools: [alpha]
  - id: bravo
    tools: [bravo]
expect:
  outcome: completed
`

/** The one error loading `file` gives. */
async function failure(file: string): Promise<ScenarioError> {
  const thrown: unknown = await loadScenario(file).then(() => undefined, (error: unknown) => error)
  if (!(thrown instanceof ScenarioError)) throw new Error(`expected a ScenarioError, got ${String(thrown)}`)
  return thrown
}

describe('the registry of targets', () => {
  it('holds the reference and dsh, and a scenario naming another target is one clear error listing them', async () => {
    expect(targetNames()).toEqual(['reference', 'dsh'])
    const dir = await fixtureDir()
    const error = await failure(await dir.write('mirror.yml', SCENARIO))
    expect(error.line).toBe(`${dir.root}/mirror.yml: target: unknown target "mirror" (one of reference, dsh)`)
  })

  it('takes a third target with no other change: a scenario naming it validates, sweeps and replays through the normal path', async () => {
    const remove = registerTarget(mirror)
    try {
      expect(targetNames()).toEqual(['reference', 'dsh', 'mirror'])
      const dir = await fixtureDir()
      const scenario = await loadScenario(await dir.write('mirror.yml', SCENARIO))
      expect(scenario.target).toBe('mirror')
      const report = await sweep([scenario], { strategy: 'auto', budget: 8, seed: '0', workers: 1 }, { runner: inProcessRunner() })
      const entry = report.scenarios[0]!
      expect(entry).toMatchObject({ name: 'mirror', target: 'mirror', verdict: 'deterministic', guarantee: 'exhaustive', explored: 2 })
      expect(parseToken(entry.outputs[0]!.token).target).toBe('mirror')
      expect(resolveSettings({ command: 'sweep', given: { value: option => (option === 'target' ? 'mirror' : undefined), flag: () => undefined }, env: {} }).target).toBe('mirror')
      expect(resolveSettings({ command: 'sweep', env: { LOADRACE_TARGET: 'mirror' } }).target).toBe('mirror')
      const other = await failure(await dir.write('prod.yml', SCENARIO.replace('target: mirror', 'target: prod')))
      expect(other.line).toBe(`${dir.root}/prod.yml: target: unknown target "prod" (one of reference, dsh, mirror)`)
    } finally {
      remove()
    }
    expect(targetNames()).toEqual(['reference', 'dsh'])
  })

  it('refuses a second target of one name', () => {
    expect(() => registerTarget({ ...mirror, name: 'dsh' })).toThrow('a target named "dsh" is registered already')
  })
})
