import type { Runner, InterleavingRecord } from '../../harness/runners/runner.ts'
import { loadScenario } from '../../harness/scenario/load.ts'
import type { Scenario } from '../../harness/scenario/scenario.ts'
import { fixtureDir } from './fixture-dirs.ts'

/**
 * A plugin that names its tool after the process it runs in and the time
 * zone that process sees (`pid_<pid>_<zone>`), so a record tells where it ran.
 */
const WITNESS = `
export const name = 'where'
export const inject = ['tools']
export function apply(ctx) {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone.replace(/[^A-Za-z0-9]/g, '_')
  const name = 'pid_' + process.pid + '_' + zone
  ctx.tools.register({ name, description: name, parameters: { type: 'object', properties: {} }, execute: () => 'ok' })
}
`

/**
 * A plugin that ends its process with a signal, which no runtime catches. A
 * killed process removes nothing, so it first removes the folders of its own
 * interleaving (its working directory's parent, \`<tmp>/loadrace-…\`).
 */
const KILLER = `
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname } from 'node:path'
export const name = 'killer'
export function apply() {
  const root = dirname(process.cwd())
  if (dirname(root) === tmpdir() && basename(root).startsWith('loadrace-')) rmSync(root, { recursive: true, force: true })
  process.kill(process.pid, 'SIGKILL')
}
`

/** A scenario whose every interleaving says where it ran, racing one other tool plugin (two interleavings). */
export async function witnessScenario(): Promise<Scenario> {
  const dir = await fixtureDir()
  await dir.write('where.mjs', WITNESS)
  return loadScenario(await dir.write('where.yml', 'app: none\nplugins:\n  - { id: where, module: ./where.mjs }\n  - { id: other, tools: [other] }\nexpect:\n  outcome: completed\n'))
}

/** A scenario whose interleavings kill the process they run in. */
export async function killerScenario(): Promise<Scenario> {
  const dir = await fixtureDir()
  await dir.write('killer.mjs', KILLER)
  return loadScenario(await dir.write('killer.yml', 'app: none\nplugins:\n  - { id: killer, module: ./killer.mjs }\nexpect:\n  outcome: completed\n'))
}

/** The process a witness record ran in, and the time zone it saw. */
export function whereRan(record: Pick<InterleavingRecord, 'tools'>): { pid: number, zone: string } {
  const tool = record.tools.find(name => name.startsWith('pid_'))
  const match = /^pid_(\d+)_(.*)$/.exec(tool ?? '')
  if (!match) throw new Error(`no witness tool among ${record.tools.join(', ')}`)
  return { pid: Number(match[1]), zone: match[2]! }
}

export { alive } from './real-io-fixtures.ts'

/** Every record of `runAll`, in completion order. */
export async function runAllOf(runner: Runner, scenario: Scenario, schedules: readonly (readonly string[])[]): Promise<InterleavingRecord[]> {
  const records: InterleavingRecord[] = []
  await runner.runAll(scenario, schedules, record => { records.push(record) })
  return records
}
