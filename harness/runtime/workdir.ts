/**
 * Isolation of one interleaving: a fresh temporary folder holding its working
 * directory and home, the environment the scenario sets (`env:`), and what its
 * target adds (dsh's snapshot variables). The system sees them as its
 * process's own — `process.cwd()`, `HOME`, `process.env` — from before the
 * base composition is mounted (so `!!js` expressions of a cordis.yml read
 * them) until the interleaving ends; then everything is restored and the
 * folder removed, unless it is kept for a look (`keep`); a process that exits
 * in the middle of an interleaving (a worker ended or interrupted) removes it
 * on its way out. A plugin that writes
 * a file in its working directory never finds it again in the next
 * interleaving, and nothing lands in the directory the sweep ran from.
 *
 * Where the thread may change directory (the main thread, a worker process),
 * the working directory really changes; a worker thread may not, so there
 * `process.cwd()` alone answers the interleaving's folder (paths resolved with
 * `path.resolve` follow it, relative file operations do not).
 */
import { cpSync, mkdirSync, mkdtempSync, rmdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isMainThread } from 'node:worker_threads'

import type { IsolationExtras, Workdir } from '../targets/target.ts'

export type { IsolationExtras, Workdir }

/** One interleaving's isolation, in force until {@link Isolation.end}. */
export interface Isolation {
  readonly workdir: Workdir
  /** Restores the process's environment and directory; removes the folder unless `keep` (returns where it stays, if kept). */
  end(keep: boolean): string | undefined
}

/** Variables set on `process.env` for the interleaving, and how to put the previous values back. */
function setEnv(values: Readonly<Record<string, string>>): () => void {
  const previous = new Map<string, string | undefined>()
  for (const [name, value] of Object.entries(values)) {
    if (!previous.has(name)) previous.set(name, process.env[name])
    process.env[name] = value
  }
  return () => {
    for (const [name, value] of previous) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
}

/** Moves the process (or, in a worker thread, its answer to `process.cwd()`) to `cwd`; returns how to move back. */
function enter(cwd: string): () => void {
  if (isMainThread) {
    const before = process.cwd()
    process.chdir(cwd)
    return () => process.chdir(before)
  }
  const own = Object.getOwnPropertyDescriptor(process, 'cwd')
  Object.defineProperty(process, 'cwd', { value: () => cwd, configurable: true, writable: true })
  return () => {
    if (own) Object.defineProperty(process, 'cwd', own)
    else delete (process as { cwd?: unknown }).cwd
  }
}

/** The folders of interleavings not yet ended, removed if the process exits first (a worker ended or interrupted mid-interleaving). */
const unended = new Set<string>()
process.on('exit', () => {
  for (const root of unended) rmSync(root, { recursive: true, force: true })
})

/**
 * Removes an interleaving's folder. Most interleavings leave their working
 * directory and home empty: then the three folders go with one `rmdir` each,
 * without the lookups of a recursive removal (which lists and inspects every
 * folder it removes, every interleaving); anything left in them is removed
 * recursively.
 */
function removeFolder(workdir: Workdir): void {
  try {
    rmdirSync(workdir.cwd)
    rmdirSync(workdir.home)
    rmdirSync(workdir.root)
  } catch {
    rmSync(workdir.root, { recursive: true, force: true, maxRetries: 3 })
  }
}

/** Starts the isolation of one interleaving: its folders, `env` and the target's extras. */
export function isolate(env: Readonly<Record<string, string>>, extras: (workdir: Workdir) => IsolationExtras = () => ({})): Isolation {
  const root = mkdtempSync(join(tmpdir(), 'loadrace-'))
  unended.add(root)
  const workdir: Workdir = { root, cwd: join(root, 'cwd'), home: join(root, 'home') }
  mkdirSync(workdir.cwd)
  mkdirSync(workdir.home)
  const added = extras(workdir)
  for (const folder of added.seed ?? []) cpSync(folder, workdir.cwd, { recursive: true })
  const restoreEnv = setEnv({ HOME: workdir.home, USERPROFILE: workdir.home, ...env, ...added.env })
  const leave = enter(workdir.cwd)
  let ended = false
  return {
    workdir,
    end(keep) {
      if (ended) return undefined
      ended = true
      unended.delete(root)
      leave()
      restoreEnv()
      if (keep) return root
      removeFolder(workdir)
      return undefined
    },
  }
}
