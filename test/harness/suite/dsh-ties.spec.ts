import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { BootRecord } from '../../../harness/preload/protocol.js'
import { defaultsOf } from '../../../harness/settings/defaults.ts'
import { applyStructure, entryRequirements, predictedApplies } from '../../../harness/space/applies.ts'
import { createRng } from '../../../harness/space/random.ts'
import { planConfigurations, type ConfigurationSettings } from '../../../harness/suite/plan.ts'

/**
 * The default plan of `loadrace test` must put both sides of both of dsh's
 * section-order ties among its rows — the natural run's order and the one
 * row after it — or the CI's expectation (`pins-one` for both,
 * apps/dsh-workspace/test-tier.expected.json) and the default's promise
 * ("finds every tie at the cost of two runs") rest on luck.
 *
 * A section registers when its plugin applies, and a plugin applies once
 * every service it injects is provided, so a section's turn comes with the
 * last release among the entries that provide them (dsh 0.1.1-rc.2's
 * declarations; the app entry `acp-agent` mounts the spine that provides
 * `tools`, `systemPrompt`, `agents` and mounts `tool-jobs`):
 * - `tool:workflow` (order 115): `tool-workflow` injects `tools`,
 *   `workflowEngine`, `systemPrompt`; `workflowEngine` is
 *   `workflow-worker-thread`'s, which injects `subagents` (`subagent`).
 * - `tool:cordis` (order 115): `tool-cordis` injects `tools`, `systemPrompt`,
 *   `dynamicCordisRunner` and `cordisInspect` (`cordis-host-runner`).
 *   When the spine comes last both wait for it and `tool-workflow` goes first,
 *   the pinned side. So the pin breaks exactly when `tool:cordis`'s last
 *   provider is released before `tool:workflow`'s.
 * - `tool:pty` (order 106): `tool-terminal` injects `terminals` (`pty`),
 *   `tools`, `systemPrompt`; `tool:jobs` comes with the spine. The pin
 *   (`tool:pty` first) holds when the spine is released after both.
 * These predicates are written from those declarations, not from anything
 * loadrace plans or records. Each plan is made after natural runs recorded on
 * this machine (their load orders and the applies they showed) and near
 * variants of each (a few neighbours swapped, the applies as the recorded
 * structure has them apply under the variant), as another run or machine may
 * load.
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const ADVANCED = 'examples/acp-agent/advanced.cordis.snapshot.yml'
const PTY = 'examples/acp-agent/pty.cordis.snapshot.yml'

type Recorded = Pick<BootRecord, 'requested' | 'released' | 'applies'>
type Runs = { natural: Record<string, Recorded>[] }
/** Natural runs recorded with their applies. */
const withApplies = JSON.parse(readFileSync(`${ROOT}/test/fixtures/dsh-ties/natural-runs.json`, 'utf8')) as Runs
/** Two CI runs' natural load orders (recorded before applies were), given the applies the structure above has under them. */
const ciOrders = JSON.parse(readFileSync(`${ROOT}/test/fixtures/dsh-ties/ci-load-orders.json`, 'utf8')) as Runs
const recorded: Runs = {
  natural: [...withApplies.natural, ...ciOrders.natural.map(run => Object.fromEntries(Object.entries(run).map(([configuration, { released }]) => [configuration, asIfLoaded(withApplies.natural[0]![configuration]!, released)])))],
}

const at = (row: readonly string[], entry: string): number => {
  const index = row.indexOf(`base.${entry}`)
  if (index < 0) throw new Error(`no entry base.${entry} in the row`)
  return index
}
const lastOf = (row: readonly string[], entries: readonly string[]): number => Math.max(...entries.map(entry => at(row, entry)))

/** Whether the row breaks each tie's pin (true) or keeps it (false). */
const ties = {
  [ADVANCED]: (row: readonly string[]) =>
    lastOf(row, ['tool-cordis', 'acp-agent', 'cordis-host-runner']) < lastOf(row, ['tool-workflow', 'acp-agent', 'workflow-worker-thread', 'subagent']),
  [PTY]: (row: readonly string[]) => at(row, 'acp-agent') < lastOf(row, ['tool-terminal', 'pty']),
}

/** `order` with `swaps` neighbouring pairs exchanged, at places the project's seeded generator picks (the first entry, the root include, stays). */
function nearVariant(order: readonly string[], seed: number, swaps: number): string[] {
  const row = [...order]
  const rng = createRng(`near-variant:${seed}`)
  for (let k = 0; k < swaps; k++) {
    const i = 1 + rng.int(row.length - 2);
    [row[i], row[i + 1]] = [row[i + 1]!, row[i]!]
  }
  return row
}

/** A natural run that loaded `released` instead: its applies in the order the recorded structure has them apply under it. */
function asIfLoaded(record: Recorded, released: readonly string[]): Recorded {
  if (released.length !== record.released.length || !released.every(entry => record.released.includes(entry))) throw new Error('a load order of other entries')
  const structure = applyStructure({ released: record.released, applies: record.applies! }, new Set(record.released), entryRequirements([record]))
  const order = predictedApplies(structure, released).map(index => structure.units[index]!.unit)
  const rank = new Map(order.map((unit, position) => [unit, position]))
  const applies = [...record.applies!].sort((a, b) => (rank.get(a.unit) ?? -1) - (rank.get(b.unit) ?? -1))
  return { ...record, released, applies }
}

/** The recorded natural runs and near variants for which the plan leaves a tie with only one side among its rows (the natural order included). */
function missed(settings: ConfigurationSettings, variants: number, runs: Runs = recorded): string[] {
  const misses: string[] = []
  runs.natural.forEach((records, run) => {
    for (const [configuration, breaks] of Object.entries(ties)) {
      const record = records[configuration]!
      for (let seed = 0; seed <= variants; seed++) {
        const natural = seed === 0 ? record : asIfLoaded(record, nearVariant(record.released, seed, 6))
        const [plan] = planConfigurations([{ configuration, ...natural }], settings)
        const rows = [natural.released, ...plan!.rows]
        const sides = new Set(rows.map(breaks))
        if (sides.size < 2) misses.push(`${configuration} after recorded natural run ${run + 1}, variant ${seed}`)
      }
    }
  })
  return misses
}

const defaults = defaultsOf('test')
const defaultPlan: ConfigurationSettings = { strategy: defaults.strategy, budget: defaults.budget, seed: defaults.seed, strength: defaults.strength }

describe('the default plan of loadrace test on dsh\'s snapshots', () => {
  it('is a plan over applies of two runs: the natural run and one row', () => {
    expect(defaultPlan).toEqual({ strategy: 'applies', budget: 2, seed: '0', strength: 2 })
    for (const records of recorded.natural) {
      const [plan] = planConfigurations([{ configuration: ADVANCED, ...records[ADVANCED]! }], defaultPlan)
      expect(plan!.rows).toHaveLength(1)
      expect(plan!.plan.over).toBe('applies')
    }
  })

  it('puts both sides of both section-order ties among its two rows, after each recorded natural run (src and lib mode, and two CI runs\' load orders) and 6 near variants of each', () => {
    expect(recorded.natural).toHaveLength(4)
    expect(missed(defaultPlan, 6)).toEqual([])
  }, 300_000)

  it('a pair-covering plan over imports (a load order and its reverse) never flips the advanced tie after the CI runs\' orders and 6 near variants: what the plan over applies is for', () => {
    const ci: Runs = { natural: recorded.natural.slice(withApplies.natural.length) }
    const misses = missed({ strategy: 'cover', budget: 2, seed: '0', strength: 2 }, 6, ci)
    expect(misses.filter(miss => miss.startsWith(ADVANCED))).toHaveLength(ci.natural.length * 7)
  }, 300_000)
})
