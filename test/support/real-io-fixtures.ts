/** Scenarios over the fixture plugins of `test/fixtures/real-io/`: plugins that start real processes and threads. */
import { readdirSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll } from 'vitest'
import { loadScenario } from '../../harness/scenario/load.ts'
import type { Scenario } from '../../harness/scenario/scenario.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from './fixture-dirs.ts'

const FIXTURES = fileURLToPath(new URL('../fixtures/real-io/', import.meta.url))

/** The synthetic plugins a fixture plugin is raced against: `tool-fast` registering `bbb_fast`, then `tool-2` registering `ccc_2`, … */
function rivals(count: number): string {
  return Array.from({ length: count }, (_, i) => i === 0 ? '  - id: tool-fast\n    tools: [bbb_fast]\n' : `  - id: tool-${i + 1}\n    tools: [ccc_${i + 1}]\n`).join('')
}

/**
 * Writes scenario `name` into `dir`: fixture plugin `plugin` (its module in
 * `test/fixtures/real-io/`, with `config`) raced against `rivalCount`
 * synthetic plugins (the first registers `bbb_fast`), under the canonical
 * variant, expected deterministic.
 */
export function realIoScenario(dir: FixtureDir, name: string, plugin: string, config = '{}', extra = '', rivalCount = 1): Promise<string> {
  const module = relative(dir.root, `${FIXTURES}${plugin}.mjs`)
  return dir.write(`${name}.yml`, `name: ${name}
app: none
variant: canonical
${extra}plugins:
  - id: ${plugin}
    module: ${module.startsWith('.') ? module : `./${module}`}
    config: ${config}
${rivals(rivalCount)}expect:
  outcome: completed
  deterministic: true
`)
}

/** A spec's one loaded scenario over fixture plugin `plugin` (see `realIoScenario`): written and loaded before its tests, its folder removed after. */
export function loadedRealIoScenario(name: string, plugin: string): () => Scenario {
  let scenario: Scenario | undefined
  beforeAll(async () => {
    scenario = await loadScenario(await realIoScenario(await fixtureDir(), name, plugin))
  })
  afterAll(removeFixtureDirs)
  return () => scenario!
}

/** Whether process `pid` still exists (a zombie counts). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** The helper pids `helper-server.mjs` noted in `marks`: started, and those whose disposer ran. */
export function helperMarks(marks: string): { started: number[], disposed: number[] } {
  const names = readdirSync(marks)
  const pids = (prefix: string) => names.filter(name => name.startsWith(prefix)).map(name => Number(name.slice(prefix.length))).sort((a, b) => a - b)
  return { started: pids('started-'), disposed: pids('disposed-') }
}

/** Waits (up to `ms`) until no pid of `pids` exists; returns those still alive. */
export async function awaitGone(pids: readonly number[], ms = 3_000): Promise<number[]> {
  const until = Date.now() + ms
  for (;;) {
    const living = pids.filter(alive)
    if (living.length === 0 || Date.now() >= until) return living
    await new Promise(resolve => setTimeout(resolve, 20))
  }
}

/**
 * A spec's folders: its fixture folder (`folders.dir()`, made before its tests)
 * and fresh folders for helpers' marks (`folders.marks()`), all removed after.
 */
export function realIoFolders(): { dir(): FixtureDir, marks(): Promise<string> } {
  let dir: FixtureDir | undefined
  const marks: string[] = []
  beforeAll(async () => { dir = await fixtureDir() })
  afterAll(async () => {
    await removeFixtureDirs()
    await Promise.all(marks.map(folder => rm(folder, { recursive: true, force: true })))
  })
  return {
    dir: () => dir!,
    async marks() {
      const folder = await mkdtemp(join(tmpdir(), 'loadrace-marks-'))
      marks.push(folder)
      return folder
    },
  }
}
