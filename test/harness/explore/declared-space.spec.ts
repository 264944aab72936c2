import { afterAll, describe, expect, it } from 'vitest'
import { serviceEntryIds, spaceOfScenario } from '../../../harness/explore/declared-space.ts'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { SERVICE_ENTRY_IDS } from '../../../src/service-entries.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)

const PLUGINS = `plugins:
  - { id: one, tools: [a] }
  - { id: three, batches: [[b], [c], [d]] }
  - { id: listens, listener: { append: [z] } }
expect:
  outcome: completed
`

async function scenario(head: string) {
  const dir = await fixtureDir()
  return loadScenario(await dir.write('space.yml', `${head}${PLUGINS}`))
}

describe('the space a scenario file declares', () => {
  it('has one chain per plugin, in declaration order, with one operation per registration batch', async () => {
    const space = spaceOfScenario(await scenario('app: none\n'))
    expect(space.chains).toEqual([
      { plugin: 'one', ops: ['one'] },
      { plugin: 'three', ops: ['three', 'three#2', 'three#3'] },
      { plugin: 'listens', ops: ['listens'] },
    ])
  })

  it('puts the racing service entries first, one operation each, when `services: entries`', async () => {
    const declared = await scenario('app: none\nservices: entries\n')
    expect(serviceEntryIds(declared)).toEqual(SERVICE_ENTRY_IDS.none)
    expect(SERVICE_ENTRY_IDS.none.length).toBeGreaterThan(0)
    const chains = spaceOfScenario(declared).chains
    expect(chains.map(chain => chain.plugin)).toEqual([...SERVICE_ENTRY_IDS.none, 'one', 'three', 'listens'])
    expect(chains.slice(0, SERVICE_ENTRY_IDS.none.length).every(chain => chain.ops.length === 1)).toBe(true)
  })

  it('has no service entries when the services are the root composition', async () => {
    expect(serviceEntryIds(await scenario('app: none\n'))).toEqual([])
  })
})
