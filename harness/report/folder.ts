import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import { mkdir, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/**
 * A report folder replaced whole. A run that writes more than report files
 * (`loadrace test`: every run's output, schedule and process records) writes
 * into a staging folder beside the report folder from its start, and only
 * when it is done does the staging folder take the report folder's place:
 * the old folder is moved aside, the new one moved in, the old one removed.
 * A reader of the report folder sees the earlier run's whole folder or this
 * run's, never a mix, and no file of the earlier run outlives the swap. A
 * staging folder left by a process that no longer runs is removed by the next
 * run beside it.
 */

/** The hidden name prefix of `folder`'s staging folders: `.<name>.staging-`. */
function stagingPrefix(folder: string): string {
  return `.${basename(folder)}.staging-`
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Removes the staging folders beside `folder` whose process is gone. */
async function removeAbandoned(folder: string): Promise<void> {
  const parent = dirname(folder)
  if (!existsSync(parent)) return
  const prefix = stagingPrefix(folder)
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(prefix)) continue
    const pid = Number(name.slice(prefix.length).split('-')[0])
    if (Number.isSafeInteger(pid) && pid !== process.pid && !alive(pid)) await rm(join(parent, name), { recursive: true, force: true })
  }
}

/** A new, empty staging folder beside `folder` (its parent made if needed). */
export async function stagingFolder(folder: string): Promise<string> {
  await removeAbandoned(folder)
  const staging = join(dirname(folder), `${stagingPrefix(folder)}${process.pid}-${randomBytes(4).toString('hex')}`)
  await mkdir(staging, { recursive: true })
  return staging
}

/** Puts `staging` in `folder`'s place, replacing whatever `folder` held. */
export async function replaceFolder(staging: string, folder: string): Promise<void> {
  const aside = join(dirname(folder), `.${basename(folder)}.replaced-${process.pid}-${randomBytes(4).toString('hex')}`)
  const hadOne = existsSync(folder)
  if (hadOne) await rename(folder, aside)
  await rename(staging, folder)
  if (hadOne) await rm(aside, { recursive: true, force: true })
}

/** Removes a staging folder that will not be used (the run failed inside loadrace). */
export async function discardFolder(staging: string): Promise<void> {
  await rm(staging, { recursive: true, force: true })
}
