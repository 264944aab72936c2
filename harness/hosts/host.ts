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
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
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
  constructor(text: string, problem: string) {
    super(`host "${text}": ${problem} (hosts: ${HOST_FORMS})`)
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

/** The Node 22 binary installed from the registry, or undefined when the package is missing. */
export function node22Binary(): string | undefined {
  const require = createRequire(import.meta.url)
  let manifest: string
  try {
    manifest = require.resolve(`${node22Package()}/package.json`)
  } catch {
    return undefined
  }
  const binary = join(dirname(manifest), 'bin', process.platform === 'win32' ? 'node.exe' : 'node')
  return existsSync(binary) ? binary : undefined
}

/** The Node binary a host runs on; throws when it is not installed. */
export function nodeBinaryOf(host: Host): string {
  if (host.runtime === 'current') return process.execPath
  const binary = node22Binary()
  if (binary === undefined) {
    throw new HostError(host.name, `Node 22 is not installed; add it with npm install --save-dev ${node22Package()}@22`)
  }
  return binary
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
