/**
 * Every clock the system reads is held: `Date.now()`, `new Date()`, `Date()`,
 * `performance.now()`, `performance.timeOrigin`, `process.hrtime()` and
 * `process.hrtime.bigint()` give held, replayable values in the plugin's own
 * code and in a worker thread it starts, so a tool description built from them
 * is byte-identical across interleavings and reruns.
 */
import { describe, expect, it } from 'vitest'
import { runInterleaving } from '../../../harness/runtime/interleaving.ts'
import { EPOCH_MS } from '../../../harness/runtime/held-clocks.js'
import { referenceTarget } from '../../../harness/targets/reference.ts'
import { inProcessRunner } from '../../../harness/runners/runner.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { loadedRealIoScenario } from '../../support/real-io-fixtures.ts'

interface Readings {
  dateNow: number
  newDate: string
  dateCall: string
  performanceNow: number
  timeOrigin: number
  hrtime: [number, number]
  hrtimeBigint: string
}

/** The first string in `value` (searched depth-first) that starts with `prefix`. */
function findString(value: unknown, prefix: string): string | undefined {
  if (typeof value === 'string') return value.startsWith(prefix) ? value : undefined
  if (typeof value !== 'object' || value === null) return undefined
  for (const item of Object.values(value)) {
    const found = findString(item, prefix)
    if (found !== undefined) return found
  }
  return undefined
}

const scenarioOf = loadedRealIoScenario('clocks', 'clock-reader')

/** The clocks' description of one interleaving. */
async function descriptionOf(schedule: string[]): Promise<string> {
  const result = await runInterleaving(scenarioOf(), referenceTarget, schedule)
  expect(result.projection.outcome).toBe('completed')
  const description = findString(JSON.parse(result.json), '{"main"')
  expect(description).toBeDefined()
  return description!
}

/** Held time (ms) is small at boot: a real clock would read years past the held epoch, or hours since the process started. */
function expectHeld(readings: Readings): void {
  expect(readings.dateNow - EPOCH_MS).toBeGreaterThanOrEqual(0)
  expect(readings.dateNow - EPOCH_MS).toBeLessThan(1_000)
  expect(readings.newDate.startsWith('2025-01-01T00:00:0')).toBe(true)
  expect(new Date(readings.dateCall).getTime() - EPOCH_MS).toBeLessThan(1_000)
  expect(readings.performanceNow).toBeLessThan(1_000)
  expect(readings.timeOrigin).toBe(EPOCH_MS)
  expect(readings.hrtime[0]).toBe(1_000)
  expect(BigInt(readings.hrtimeBigint) / 1_000_000_000n).toBe(1_000n)
}

describe('every clock the system reads is held', () => {
  it('in apply and in a worker thread it starts: held values, byte-identical across interleavings and reruns', async () => {
    const first = await descriptionOf(['clock-reader', 'tool-fast'])
    const readings = JSON.parse(first) as { main: Readings, worker: Readings }
    expectHeld(readings.main)
    expectHeld(readings.worker)
    expect(await descriptionOf(['tool-fast', 'clock-reader'])).toBe(first)
    expect(await descriptionOf(['clock-reader', 'tool-fast'])).toBe(first)
  })

  it('the sweep finds it deterministic', async () => {
    const report = await sweepScenario(scenarioOf(), { strategy: 'exhaustive', budget: 100, seed: '0', workers: 1 }, { runner: inProcessRunner() })
    expect(report).toMatchObject({ verdict: 'deterministic', outcome: 'completed', passed: true })
  })

  it('loadrace\'s own code, outside the system, still reads the real clocks', () => {
    expect(Date.now() - EPOCH_MS).toBeGreaterThan(86_400_000)
    expect(new Date().getFullYear()).toBeGreaterThan(2025)
    expect(performance.timeOrigin).not.toBe(EPOCH_MS)
  })
})
