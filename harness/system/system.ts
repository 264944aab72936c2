/**
 * The system under test as the project has it: the cordis, loader, include
 * and schemastery the project's own packages use, found with Node's
 * resolution from the folder of the scenario (or of the cordis.yml it names)
 * and loaded once per distinct set. loadrace's own pinned copies serve only
 * where the project has none (loadrace's own scenarios, the reference target,
 * a project that installed only loadrace). One interleaving runs on one
 * cordis: the scheduled loader and include subclass the system's own classes.
 */
import { fileURLToPath, pathToFileURL } from 'node:url'
import type * as CordisModule from '@deepseek-ai/cordis'
import type * as LoaderModule from '@deepseek-ai/cordis-plugin-loader'
import type * as IncludeModule from '@deepseek-ai/cordis-plugin-include'
import { PACKAGE_ROOT } from '../package/files.ts'
import { fileIn, isInside, packageOf, projectRootOf, realFile, resolvePackageFrom, type PackageFound } from './resolve.ts'

/** The packages every system is made of, by role. */
export const CORE_PACKAGES = {
  cordis: '@deepseek-ai/cordis',
  loader: '@deepseek-ai/cordis-plugin-loader',
  include: '@deepseek-ai/cordis-plugin-include',
} as const

/** The config schema library the system's packages validate with: recorded where the system's packages resolve one. */
export const SCHEMASTERY = '@deepseek-ai/schemastery'

export type CoreRole = keyof typeof CORE_PACKAGES

/** What a report says of the system that ran: each package's name, version and real folder. */
export interface SystemDescription {
  /** True when these are loadrace's own pinned copies (the project under test has none). */
  own: boolean
  packages: { name: string, version: string, path: string }[]
}

/** Where a run ran: the Node version, the APIs a target supplied to it, and the system under test. */
export interface RanOn {
  node: string
  shims: string[]
  system?: SystemDescription
}

/** Raised when the project's packages cannot make one system (a loader beside another cordis, say); the message says which files. */
export class SystemError extends Error {
  override readonly name = 'SystemError'
}

export interface System {
  /** The root of the project the packages were taken from (loadrace's own package root for its own copies). */
  readonly project: string
  /** Whether these are loadrace's own pinned copies. */
  readonly own: boolean
  readonly packages: Readonly<Record<CoreRole, PackageFound>>
  readonly cordis: typeof CordisModule
  readonly loader: typeof LoaderModule
  readonly include: typeof IncludeModule
  /**
   * Another package of the system (a dsh package a target uses), found the
   * way the core packages were: from the starting folder, then from the
   * system's own packages and those found before it, inside the project.
   * Undefined when the project has none.
   */
  find(name: string): PackageFound | undefined
  /** What a report says of this system: the core packages, then those of `names` it has (each found as by {@link find}). */
  describe(names?: readonly string[]): SystemDescription
}

/** Looks `name` up from each folder in turn, keeping only a file inside the project. */
function lookUp(name: string, from: readonly string[], root: string): PackageFound | undefined {
  for (const dir of from) {
    const entry = resolvePackageFrom(name, fileIn(dir))
    if (entry === undefined || !isInside(root, entry)) continue
    const found = packageOf(name, entry)
    if (found !== undefined) return found
  }
  return undefined
}

async function importFile(file: string): Promise<unknown> {
  return import(pathToFileURL(file).href)
}

const systems = new Map<string, Promise<System>>()

/** The system made of these packages (one per distinct set of files: its classes are created once). */
function systemOf(project: string, own: boolean, packages: Record<CoreRole, PackageFound>, search: readonly string[]): Promise<System> {
  const key = (Object.keys(CORE_PACKAGES) as CoreRole[]).map(role => packages[role].entry).join('\n')
  let system = systems.get(key)
  if (!system) {
    system = (async () => {
      const [cordis, loader, include] = await Promise.all([importFile(packages.cordis.entry), importFile(packages.loader.entry), importFile(packages.include.entry)])
      const extra = new Map<string, PackageFound | undefined>()
      const from = () => [...search, ...Object.values(packages).map(found => found.dir), ...[...extra.values()].flatMap(found => found ? [found.dir] : [])]
      const system: System = {
        project,
        own,
        packages,
        cordis: cordis as typeof CordisModule,
        loader: loader as typeof LoaderModule,
        include: include as typeof IncludeModule,
        find(name) {
          if (!extra.has(name)) extra.set(name, lookUp(name, from(), project))
          return extra.get(name)
        },
        describe(names = []) {
          const others = [SCHEMASTERY, ...names].flatMap(name => system.find(name) ?? [])
          const found = [packages.cordis, packages.loader, packages.include, ...others]
          return { own, packages: found.map(item => ({ name: item.name, version: item.version, path: item.dir })) }
        },
      }
      return system
    })()
    systems.set(key, system)
  }
  return system
}

/** The core packages as found from `from`, inside `root`: each also looked up from the packages found before it. */
function corePackages(from: readonly string[], root: string): Partial<Record<CoreRole, PackageFound>> {
  const include = lookUp(CORE_PACKAGES.include, from, root)
  const loader = lookUp(CORE_PACKAGES.loader, [...from, ...include ? [include.dir] : []], root)
  const cordis = lookUp(CORE_PACKAGES.cordis, [...from, ...loader ? [loader.dir] : [], ...include ? [include.dir] : []], root)
  return { ...include && { include }, ...loader && { loader }, ...cordis && { cordis } }
}

/** Why the loader or include would run on another cordis than `cordis` (each resolves its own), or undefined. */
function mixedCopies(found: Record<CoreRole, PackageFound>): string | undefined {
  for (const role of ['loader', 'include'] as const) {
    const theirs = resolvePackageFrom(CORE_PACKAGES.cordis, fileIn(found[role].dir))
    if (theirs !== undefined && realFile(theirs) !== found.cordis.entry) {
      return `${found[role].name} at ${found[role].dir} resolves ${CORE_PACKAGES.cordis} to ${theirs}, not to the project's ${found.cordis.entry}: two cordis copies cannot share one loader`
    }
  }
  return undefined
}

let own: Promise<System> | undefined

/** loadrace's own pinned copies, resolved from its own package. */
export function ownSystem(): Promise<System> {
  own ??= (async () => {
    const root = realFile(fileURLToPath(PACKAGE_ROOT))
    // Installed as a dependency, loadrace's packages sit beside it in the project's node_modules, not inside its folder.
    const found = corePackages([root], '/')
    const missing = (Object.keys(CORE_PACKAGES) as CoreRole[]).filter(role => found[role] === undefined)
    if (missing.length > 0) throw new SystemError(`loadrace's own ${missing.map(role => CORE_PACKAGES[role]).join(', ')} cannot be resolved from ${root}: reinstall loadrace`)
    return systemOf('/', true, found as Record<CoreRole, PackageFound>, [root])
  })()
  return own
}

/**
 * The system the project holding `dir` runs on: its own cordis, loader,
 * include and schemastery when it has them (pnpm workspace links followed),
 * loadrace's own copies when it has no cordis. A project whose cordis has no
 * loader or include beside it, or whose loader or include resolve another
 * cordis, cannot be run: `SystemError` says which package is where.
 */
export async function projectSystem(dir: string): Promise<System> {
  const root = realFile(projectRootOf(dir))
  const found = corePackages([realFile(dir)], root)
  const mine = await ownSystem()
  if (found.cordis === undefined) return mine
  if (found.cordis.entry === mine.packages.cordis.entry) return mine
  const missing = (['loader', 'include'] as const).filter(role => found[role] === undefined)
  if (missing.length > 0) {
    throw new SystemError(`the project at ${root} has ${CORE_PACKAGES.cordis} ${found.cordis.version} (${found.cordis.dir}) but no ${missing.map(role => CORE_PACKAGES[role]).join(' or ')} beside it: install them in the project, or remove its cordis to run on loadrace's own`)
  }
  const complete = found as Record<CoreRole, PackageFound>
  const mixed = mixedCopies(complete)
  if (mixed !== undefined) throw new SystemError(mixed)
  return systemOf(root, false, complete, [realFile(dir)])
}
