import { randomBytes } from 'node:crypto'
import { mkdir, open, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { ReportFormat } from '../settings/formats.ts'

/** The file each format is written to, whatever the kind of report. */
export const FORMAT_FILES: Readonly<Record<ReportFormat, string>> = {
  json: 'report.json',
  md: 'report.md',
  junit: 'junit.xml',
  html: 'report.html',
}

/** A fresh name in `dir` for the temp file of `file` (hidden, unique per process and call). */
function tempPath(dir: string, file: string): string {
  return join(dir, `.${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
}

/** Writes `content` to a new file at `path` and flushes it to disk. */
async function writeFlushed(path: string, content: string): Promise<void> {
  const handle = await open(path, 'wx')
  try {
    await handle.writeFile(content, 'utf8')
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** One file for `writeFilesAtomically`: its name inside the folder and its whole content. */
export interface FileContent {
  file: string
  content: string
}

/**
 * Writes each file into `dir` (created if needed) and returns the paths
 * written. Each file is written to a temp file in `dir`, flushed, and renamed
 * over its target only once every temp file is complete, so a reader sees
 * either the old file or the whole new one; temp files are removed on any
 * error.
 */
export async function writeFilesAtomically(dir: string, files: readonly FileContent[]): Promise<string[]> {
  await mkdir(dir, { recursive: true })
  const pending: string[] = []
  const written: string[] = []
  try {
    const temps: { temp: string, target: string }[] = []
    for (const { file, content } of files) {
      const temp = tempPath(dir, file)
      pending.push(temp)
      temps.push({ temp, target: join(dir, file) })
      await writeFlushed(temp, content)
    }
    for (const { temp, target } of temps) {
      await rename(temp, target)
      pending.splice(pending.indexOf(temp), 1)
      written.push(target)
    }
  } catch (error) {
    await Promise.all(pending.map((temp) => rm(temp, { force: true })))
    throw error
  }
  return written
}
