/**
 * What test/harness/cli/interrupt.spec.ts leaves open about an interrupted
 * sweep: scenarios finished before the signal stay whole in the report, the
 * interrupted one keeps every interleaving that ran, and every format says
 * the sweep is incomplete.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { exists, listing, longSweep, MARKER_MODULE, PAIR, readReport, startCli } from '../support/cli.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../support/fixture-dirs.ts'
import { descendants, parseStrictXml } from '../support/xml.ts'

let dir: FixtureDir
let marker = ''

beforeAll(async () => {
  dir = await fixtureDir()
  marker = join(dir.root, 'applied')
  await dir.write('run/marker.mjs', MARKER_MODULE)
  await dir.write('run/a-pair.yml', PAIR)
  await dir.write('run/b-long.yml', longSweep(8, marker))
})

afterAll(removeFixtureDirs)

/** How many interleavings of the long scenario have started (its marker plugin appends a line in each). */
async function applied(): Promise<number> {
  return await exists(marker) ? (await readFile(marker, 'utf8')).split('\n').length - 1 : 0
}

it('SIGINT mid-sweep keeps the finished scenario whole and every interleaving that ran, in every format', async () => {
  const { child, done } = startCli(
    ['sweep', 'run', '--strategy', 'exhaustive', '--budget', '100000', '--workers', '1', '--report', 'out', '--goldens', 'goldens'],
    { cwd: dir.root },
  )
  while (await applied() < 5) await new Promise((resolve) => setTimeout(resolve, 50))
  const startedBeforeSignal = await applied()
  child.kill('SIGINT')
  const run = await done
  expect(run.code).toBe(130)

  const out = join(dir.root, 'out')
  expect(await listing(out)).toEqual(['junit.xml', 'report.html', 'report.json', 'report.md'])
  const report = await readReport(out)
  expect(report.complete).toBe(false)
  const [pair, long] = report.scenarios
  expect(report.scenarios).toHaveLength(2)
  expect(pair).toMatchObject({ name: 'pair', explored: 2, space: '2', verdict: 'deterministic', passed: true, problems: [] })
  expect(long).toMatchObject({ name: 'long', space: '362880', passed: false })
  // One interleaving at a time: at most the one running when the signal came may be missing.
  expect(long!.explored).toBeGreaterThanOrEqual(startedBeforeSignal - 1)
  expect(long!.explored).toBeLessThanOrEqual(await applied())
  expect(long!.outputs.reduce((total, output) => total + output.count, 0)).toBe(long!.explored)
  expect(report.summary).toMatchObject({ scenarios: 2, interleavings: 2 + long!.explored })

  expect(await readFile(join(out, 'report.md'), 'utf8')).toMatch(/^> \[!WARNING\]$/m)
  expect(await readFile(join(out, 'report.html'), 'utf8')).toContain('id="incomplete"')
  const junit = parseStrictXml(await readFile(join(out, 'junit.xml'), 'utf8'))
  const complete = descendants(junit, 'property').find((property) => property.attributes.name === 'complete')
  expect(complete?.attributes.value).toBe('false')
})
