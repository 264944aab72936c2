/** Scenario files written into a fresh temporary directory per test. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** A temporary folder to write scenario files and plugin modules into. */
export interface FixtureDir {
  /** Absolute path of the folder. */
  root: string
  /** Writes `text` to `relative` (creating folders) and returns the absolute path. */
  write(relative: string, text: string): Promise<string>
}

const created: string[] = []

/** Creates a fresh fixture folder under the OS temp directory. */
export async function fixtureDir(): Promise<FixtureDir> {
  const root = await mkdtemp(join(tmpdir(), 'loadrace-scenario-'))
  created.push(root)
  return {
    root,
    async write(relative, text) {
      const path = join(root, relative)
      await mkdir(dirname(path), { recursive: true })
      await writeFile(path, text)
      return path
    },
  }
}

/** Removes every fixture folder created so far (call from `afterAll`). */
export async function removeFixtureDirs(): Promise<void> {
  await Promise.all(created.splice(0).map((root) => rm(root, { recursive: true, force: true })))
}

/** The smallest valid scenario body after `extra` top-level lines. */
export function minimal(extra = ''): string {
  return `${extra}plugins:\n  - id: alpha\n    tools: [alpha]\nexpect:\n  outcome: completed\n`
}
