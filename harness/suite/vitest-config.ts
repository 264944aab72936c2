import { existsSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The config `loadrace test` runs a vitest command with: one that imports
 * the user's own config, found as vitest finds it (`--config`/`-c`, else the
 * first `vitest.config.*` or `vite.config.*` from the root up), and adds the
 * loader instrumentation at the root and to every project
 * (`preload/vitest-plugin.js`). The command's other arguments stay as they
 * are; its `--config` is replaced by the wrapping config's.
 */

const PLUGIN = fileURLToPath(new URL('../preload/vitest-plugin.js', import.meta.url))

/** The config files vitest looks for, in its order. */
const CONFIG_FILES = ['vitest.config', 'vite.config'].flatMap(name => ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'].map(ext => `${name}.${ext}`))

/** The name the wrapping config is written under, in the runs' folder. */
export const WRAPPING_CONFIG = 'vitest.loadrace.config.mjs'

/** The value of option `names` in `argv` (`--root X`, `--root=X`, `-r X`), and where it sits. */
function optionOf(argv: readonly string[], names: readonly string[]): { value: string, at: number, width: number } | undefined {
  for (let at = 0; at < argv.length; at++) {
    const arg = argv[at]!
    for (const name of names) {
      if (arg === name && at + 1 < argv.length) return { value: argv[at + 1]!, at, width: 2 }
      if (arg.startsWith(`${name}=`)) return { value: arg.slice(name.length + 1), at, width: 1 }
    }
  }
  return undefined
}

/** The user's vitest config for a command run in `cwd`: the file, or none (`--config false`, or none found). */
export function userConfigOf(argv: readonly string[], cwd: string): string | undefined {
  const root = resolve(cwd, optionOf(argv, ['--root', '-r'])?.value ?? '.')
  const given = optionOf(argv, ['--config', '-c'])?.value
  if (given === 'false') return undefined
  if (given !== undefined) return resolve(root, given)
  for (let folder = root; ; folder = dirname(folder)) {
    const found = CONFIG_FILES.map(name => join(folder, name)).find(candidate => existsSync(candidate))
    if (found !== undefined) return found
    if (dirname(folder) === folder) return undefined
  }
}

/**
 * Writes the wrapping config into `folder` for a command run in `cwd`, and
 * returns the command's arguments with `--config` naming it.
 */
export function withWrappingConfig(argv: readonly string[], cwd: string, folder: string): string[] {
  const user = userConfigOf(argv, cwd)
  const root = resolve(cwd, optionOf(argv, ['--root', '-r'])?.value ?? '.')
  const file = join(folder, WRAPPING_CONFIG)
  writeFileSync(file, [
    '// Written by loadrace test: your vitest config, with the loader instrumentation added to it and to every project.',
    user === undefined ? 'const user = {}' : `import * as imported from ${JSON.stringify(user)}\nconst user = imported.default`,
    `import { wrapVitestConfig } from ${JSON.stringify(PLUGIN)}`,
    `export default (env) => wrapVitestConfig(user, env, { root: ${JSON.stringify(root)} })`,
    '',
  ].join('\n'))
  const out = [...argv]
  const config = optionOf(out, ['--config', '-c'])
  if (config !== undefined) out.splice(config.at, config.width)
  const vitest = out.findIndex(arg => /(^|[\\/])vitest(\.m?js|\.cmd)?$/.test(arg))
  // After `vitest` and its subcommand (`run`), so the option is never read as a file filter's value.
  const at = vitest < 0 ? out.length : vitest + 1 + (['run', 'watch', 'dev', 'related', 'bench', 'list'].includes(out[vitest + 1] ?? '') ? 1 : 0)
  out.splice(at, 0, '--config', file)
  return out
}
