/**
 * One cordis for everything: a plugin module must see the same
 * `@deepseek-ai/cordis` module instance as the system it is loaded into, or
 * its services, events and inject checks live in a different registry and the
 * scheduler cannot observe them. A module that resolves a second copy is told
 * so before anything of it is imported.
 */
import { CORE_PACKAGES, type System } from '../system/system.ts'
import { isInside, resolvePackageFrom } from '../system/resolve.ts'

/**
 * Why the module at `modulePath` cannot share the system's cordis (it
 * resolves `@deepseek-ai/cordis` to another file), or undefined when it shares
 * it or does not resolve cordis inside the project at all.
 */
export function cordisCopyProblem(modulePath: string, system: System): string | undefined {
  const theirs = resolvePackageFrom(CORE_PACKAGES.cordis, modulePath)
  // A lookup that climbs out of the project (a checkout nested in another one) finds nothing of the project's.
  if (theirs === undefined || !isInside(system.project, theirs)) return undefined
  const mine = system.packages.cordis.entry
  if (theirs === mine) return undefined
  const whose = system.own ? 'loadrace uses' : `the system under test (${system.project}) uses`
  return `resolves ${CORE_PACKAGES.cordis} to ${theirs}, but ${whose} ${mine}: two cordis copies cannot share one loader`
}
