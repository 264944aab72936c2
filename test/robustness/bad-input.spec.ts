/**
 * Bad scenario files at scale: every generated malformed file makes
 * `loadrace sweep FILE --report DIR` exit 2 with one clean line naming the file
 * and the field path, and writes nothing.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import fc from 'fast-check'
import { stringify } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../harness/cli/main.ts'
import { loadScenario } from '../../harness/scenario/load.ts'
import { captured, exists, inDir, listing, runCli } from '../support/cli.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../support/fixture-dirs.ts'
import { badScenario, DEFECT_CLASSES, HEADER_FILES, PLUGIN_MODULES, validScenarioDoc, type BadScenario, type DefectClass } from '../support/bad-scenarios.ts'

/** How many malformed files the in-process property runs. */
const CASES = 1200
/** How many of them (at least) also go through the spawned bin. */
const SPAWNED_PER_CLASS = 2
const PREVIOUS_REPORT = '{"previous": true}\n'

let dir: FixtureDir

beforeAll(async () => {
  dir = await fixtureDir()
  for (const [path, source] of Object.entries({ ...PLUGIN_MODULES, ...HEADER_FILES })) await dir.write(join('cases', path), source)
})

afterAll(removeFixtureDirs)

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The one line a malformed `file` must produce: `FILE: field.path: what is wrong (what is allowed)`. */
function errorLinePattern(file: string, path: string): RegExp {
  return new RegExp(`^${escapeRegExp(file)}: ${escapeRegExp(path)}: [^\\n]+ \\([^\\n]+\\)\\n$`)
}

/** One generated case as the sweep is given it: the file path as typed, and where the report would go. */
interface Case {
  bad: BadScenario
  file: string
  report: string
  /** Whether `report/report.json` existed before the run. */
  kept: boolean
}

/** Checks what one run did with a malformed file: exit 2, one clean line, nothing written. */
async function checkRejected(run: { code: number | null, stdout: string, stderr: string }, item: Case): Promise<void> {
  const what = `${item.bad.defect} at ${item.bad.path}:\n${item.bad.text}`
  expect(run.code, what).toBe(2)
  expect(run.stderr, what).toMatch(errorLinePattern(item.file, item.bad.path))
  expect(run.stderr.split('\n'), what).toHaveLength(2)
  expect(run.stderr, what).not.toMatch(/^ {4}at /m)
  expect(run.stdout, what).toBe('')
  const report = join(dir.root, item.report)
  if (item.kept) {
    expect(await listing(report), what).toEqual(['report.json'])
    expect(await readFile(join(report, 'report.json'), 'utf8'), what).toBe(PREVIOUS_REPORT)
  } else {
    expect(await exists(report), what).toBe(false)
  }
  expect(await exists(join(dir.root, 'goldens')), what).toBe(false)
}

function argsOf(item: Case): string[] {
  return ['sweep', item.file, '--report', item.report, '--workers', '1', '--goldens', 'goldens']
}

let caseNumber = 0

/** Writes a generated file under `cases/` and picks how its path is given and whether a report exists already. */
async function prepare(bad: BadScenario, form: 'relative' | 'dotted' | 'absolute', kept: boolean): Promise<Case> {
  const number = caseNumber++
  const absolute = await dir.write(`cases/case-${number}.yml`, bad.text)
  const file = form === 'absolute' ? absolute : form === 'dotted' ? `./cases/case-${number}.yml` : `cases/case-${number}.yml`
  const report = `reports/r-${number}`
  if (kept) {
    await mkdir(join(dir.root, report), { recursive: true })
    await writeFile(join(dir.root, report, 'report.json'), PREVIOUS_REPORT)
  }
  return { bad, file, report, kept }
}

describe('the generator', () => {
  it('starts from documents the loader accepts', async () => {
    await fc.assert(fc.asyncProperty(validScenarioDoc, async (doc) => {
      const file = await dir.write(`cases/valid-${caseNumber++}.yml`, stringify(doc))
      await expect(loadScenario(file)).resolves.toBeDefined()
    }), { numRuns: 150 })
  })
})

describe('malformed scenario files', () => {
  const counts = new Map<DefectClass, number>(DEFECT_CLASSES.map((defect) => [defect, 0]))
  /** Cases for the spawned bin, with what `main()` answered for them. */
  const sample: { item: Case, code: number, stderr: string }[] = []

  it(`each of ${CASES} generated files exits 2 with one line naming the file and the field path, writing nothing`, async () => {
    let ran = 0
    await inDir(dir.root, () => fc.assert(fc.asyncProperty(
      badScenario,
      fc.constantFrom('relative' as const, 'dotted' as const, 'absolute' as const),
      fc.boolean(),
      async (bad, form, kept) => {
        const item = await prepare(bad, form, kept)
        const out = captured()
        const code = await main(argsOf(item), out.cli)
        await checkRejected({ code, stdout: out.stdout(), stderr: out.stderr() }, item)
        ran += 1
        counts.set(bad.defect, (counts.get(bad.defect) ?? 0) + 1)
        const taken = sample.filter((entry) => entry.item.bad.defect === bad.defect).length
        if (taken < SPAWNED_PER_CLASS && !isAbsolute(item.file)) sample.push({ item, code, stderr: out.stderr() })
      },
    ), { numRuns: CASES }))
    console.log(`bad-input: ${ran} malformed scenario files ran through main(); by defect class: ${[...counts].map(([defect, count]) => `${defect} ${count}`).join(', ')}`)
    expect(ran).toBeGreaterThanOrEqual(1000)
    for (const defect of DEFECT_CLASSES) expect(counts.get(defect), defect).toBeGreaterThan(0)
  }, 120_000)

  it('gives the same answer through the spawned bin, for a sample of every defect class', async () => {
    expect(sample.length).toBeGreaterThanOrEqual(20)
    const pending = [...sample]
    const worker = async () => {
      for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
        const run = await runCli(argsOf(next.item), { cwd: dir.root })
        expect(run.signal).toBeNull()
        await checkRejected(run, next.item)
        expect(run.stderr).toBe(next.stderr)
        expect(run.code).toBe(next.code)
      }
    }
    await Promise.all([worker(), worker(), worker()])
    console.log(`bad-input: ${sample.length} of them also ran through the spawned bin`)
  }, 120_000)
})
