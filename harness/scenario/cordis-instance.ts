/**
 * One cordis for everything: a plugin module must see the same
 * `@deepseek-ai/cordis` module instance as loadrace's scheduled loader, or its
 * services, events and inject checks live in a different registry and the
 * scheduler cannot observe them. A user project that installed a second copy
 * is told so before anything of it is imported.
 */
import { realpath } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { resolvePackageFrom } from './specifier.ts'

const CORDIS = '@deepseek-ai/cordis'

async function realFile(path: string): Promise<string> {
  try {
    return await realpath(path)
  } catch {
    return path
  }
}

let own: Promise<string> | undefined

/** The file loadrace itself loads for `@deepseek-ai/cordis`. */
export function ownCordisFile(): Promise<string> {
  own ??= realFile(resolvePackageFrom(CORDIS, fileURLToPath(import.meta.url)) ?? CORDIS)
  return own
}

/**
 * Why the module at `modulePath` cannot share loadrace's cordis (it resolves
 * `@deepseek-ai/cordis` to another file), or undefined when it shares it or
 * does not resolve cordis at all.
 */
export async function cordisCopyProblem(modulePath: string): Promise<string | undefined> {
  const theirs = resolvePackageFrom(CORDIS, modulePath)
  if (theirs === undefined) return undefined
  const [mine, real] = await Promise.all([ownCordisFile(), realFile(theirs)])
  if (real === mine) return undefined
  return `resolves ${CORDIS} to ${real}, but loadrace uses ${mine}: two cordis copies cannot share one loader`
}
