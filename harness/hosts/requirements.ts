/**
 * What a scenario requires of the machine it is swept on (`requires:`): the
 * commands that must be found on `PATH`, and the platforms it runs on. A
 * scenario whose requirement this machine does not meet is skipped, saying
 * which — as a test suite skips a test its host cannot run — never run and
 * never failed.
 */
import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, join } from 'node:path'

/** `posix`: every platform but Windows; the others are Node's `process.platform` names. */
export const PLATFORMS = ['posix', 'linux', 'darwin', 'win32', 'freebsd', 'openbsd', 'netbsd', 'aix', 'sunos'] as const
export type Platform = typeof PLATFORMS[number]

/** A command name as `PATH` is searched for it: no folder, no spaces. */
export const COMMAND_NAME = /^[A-Za-z0-9_][A-Za-z0-9._+-]*$/

export interface Requirements {
  /** Commands that must be found on `PATH` when the sweep runs (`pwsh`). */
  commands: string[]
  /** Platforms the scenario runs on; empty: every one. */
  platforms: Platform[]
}

/** The machine a requirement is checked on: this process's platform and variables unless a check says otherwise. */
export interface Machine {
  platform: NodeJS.Platform
  env: NodeJS.ProcessEnv
}

const THIS_MACHINE: Machine = { platform: process.platform, env: process.env }

function isExecutable(path: string, machine: Machine): boolean {
  try {
    if (!statSync(path).isFile()) return false
    if (machine.platform !== 'win32') accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** Whether `command` is found on the machine's `PATH` (with `PATHEXT`'s extensions on Windows). */
export function onPath(command: string, machine: Machine = THIS_MACHINE): boolean {
  const path = machine.env.PATH ?? machine.env.Path ?? ''
  const extensions = machine.platform === 'win32' ? ['', ...(machine.env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean)] : ['']
  return path.split(delimiter).filter(Boolean).some(folder => extensions.some(extension => isExecutable(join(folder, `${command}${extension}`), machine)))
}

function platformMatches(wanted: Platform, platform: NodeJS.Platform): boolean {
  return wanted === 'posix' ? platform !== 'win32' : wanted === platform
}

/** Why this machine cannot run a scenario with these requirements, or undefined when it meets them all. */
export function unmetRequirement(requires: Requirements, machine: Machine = THIS_MACHINE): string | undefined {
  if (requires.platforms.length > 0 && !requires.platforms.some(wanted => platformMatches(wanted, machine.platform))) {
    return `it requires the platform ${requires.platforms.join(' or ')}, and this is ${machine.platform}`
  }
  const missing = requires.commands.filter(command => !onPath(command, machine))
  if (missing.length > 0) return `it requires ${missing.join(', ')} on PATH, and ${missing.length === 1 ? 'it is' : 'they are'} not found there`
  return undefined
}
