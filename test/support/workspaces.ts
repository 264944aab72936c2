/**
 * Project layouts on disk for the system resolution specs: a pnpm-style
 * workspace with cordis, its loader and include vendored as copies of
 * loadrace's own (so they are other files, loaded as another system) and
 * linked into each other's `node_modules` as pnpm links workspace packages.
 */
import { cp, mkdir, symlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FixtureDir } from './fixture-dirs.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const OWN = join(ROOT, 'node_modules')

/** Links `target` as `node_modules/<name>` of the package folder `dir`. */
export async function link(dir: string, name: string, target: string): Promise<void> {
  const at = join(dir, 'node_modules', name)
  await mkdir(dirname(at), { recursive: true })
  await symlink(target, at, 'dir')
}

/** The third-party dependencies of cordis and its plugins, linked to loadrace's own installs. */
const SHARED = ['@deepseek-ai/cosmokit', '@deepseek-ai/schemastery', '@standard-schema/spec', 'js-yaml']

/** Copies loadrace's own `name` (e.g. `@deepseek-ai/cordis`) to `dir`, its third-party dependencies linked. */
async function vendor(name: string, dir: string): Promise<void> {
  await cp(join(OWN, name), dir, { recursive: true, dereference: true, filter: source => !source.includes(`${name}/node_modules`) })
  for (const dependency of SHARED) await link(dir, dependency, join(OWN, dependency))
}

/** A workspace's vendored cordis, loader and include. */
export interface Workspace {
  root: string
  cordis: string
  loader: string
  include: string
  /** A package folder of the workspace (`app/`) that depends only on the include, as dsh's `examples/` does. */
  app: string
}

/**
 * Writes a pnpm workspace under `at` (a folder of `dir`): `vendor/{cordis,loader,include}`
 * linked to each other as their dependencies, and `app/` depending on the include alone.
 */
export async function pnpmWorkspace(dir: FixtureDir, at = 'ws'): Promise<Workspace> {
  const root = join(dir.root, at)
  await dir.write(`${at}/pnpm-workspace.yaml`, 'packages:\n  - vendor/*\n  - app\n')
  await dir.write(`${at}/package.json`, JSON.stringify({ name: 'ws-root', private: true }))
  const cordis = join(root, 'vendor/cordis')
  const loader = join(root, 'vendor/loader')
  const include = join(root, 'vendor/include')
  await vendor('@deepseek-ai/cordis', cordis)
  await vendor('@deepseek-ai/cordis-plugin-loader', loader)
  await vendor('@deepseek-ai/cordis-plugin-include', include)
  await link(loader, '@deepseek-ai/cordis', cordis)
  await link(include, '@deepseek-ai/cordis', cordis)
  await link(include, '@deepseek-ai/cordis-plugin-loader', loader)
  const app = join(root, 'app')
  await dir.write(`${at}/app/package.json`, JSON.stringify({ name: 'app', private: true, dependencies: { '@deepseek-ai/cordis-plugin-include': 'workspace:*' } }))
  await link(app, '@deepseek-ai/cordis-plugin-include', include)
  return { root, cordis, loader, include, app }
}

/** loadrace's own copy of a package. */
export function ownPackage(name: string): string {
  return join(OWN, name)
}
