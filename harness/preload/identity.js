// @ts-check
/**
 * What a boot boots, by a name that is the same in every run: the
 * configuration its schedule row is looked up by and its record carries.
 *
 * A cordis.yml in the project is named by its path (relative to the
 * project), as dsh's example configurations are. A test that boots a
 * composition writes its cordis.yml into a fresh temporary folder each time,
 * and may write a port or that folder into it, so such a file — or one
 * outside the project — is named by what it holds: the test file (or entry
 * script), ` › `, the file's name, `#` and a hash of its entries' structure
 * (each entry's id as written or none, its plugin with the folder and the
 * temporary folder taken out, the group it sits in; never its config).
 * Entries of a loader with no include get the same treatment (`entries`).
 *
 * The structure is read when the boot's first wave has been read: before
 * that, an include's store holds only the entries created so far.
 */
import { createHash } from 'node:crypto'
import { realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, isAbsolute, relative, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { entryWithoutId } from '../scenario/entry-labels.js'

/**
 * @typedef {{
 *   options: { id?: string, name: string },
 *   subtree?: Tree,
 *   parent?: { tree: Tree, ctx?: { fiber?: { entry?: unknown } } },
 * }} TreeEntry
 * @typedef {{ store: Record<string, TreeEntry>, filename?: unknown, root?: { tree?: Tree }, ctx?: { fiber?: { entry?: TreeEntry } } }} Tree
 */

const TEMPORARY = [tmpdir(), safeRealpath(tmpdir())]

/** @param {string} path */
function safeRealpath(path) {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

/**
 * The raw tree a boot starts from: the tree above every include `tree`
 * sits under (cordis hands code proxies; a tree's root group keeps the raw
 * tree).
 * @param {Tree} tree
 * @returns {Tree}
 */
export function rootTreeOf(tree) {
  let current = tree.root?.tree ?? tree
  for (let above = current.ctx?.fiber?.entry?.parent?.tree; above !== undefined; above = current.ctx?.fiber?.entry?.parent?.tree) {
    current = above.root?.tree ?? above
  }
  return current
}

/**
 * The outermost include's file under `root`, breadth first (the root itself
 * when it is an include).
 * @param {Tree} root
 * @returns {string | undefined}
 */
function outermostFile(root) {
  /** @type {Tree[]} */
  let level = [root]
  while (level.length > 0) {
    const found = level.find(tree => typeof tree.filename === 'string')
    if (found !== undefined) return /** @type {string} */ (found.filename)
    level = level.flatMap(tree => Object.values(tree.store ?? {}).flatMap(entry => entry.subtree === undefined ? [] : [entry.subtree]))
  }
  return undefined
}

/**
 * Every entry under `root`, as structure: its path of ids as written (`-`
 * for one the loader made up), its plugin with `folder` and the temporary
 * folder written as placeholders. Sorted: a store enumerates integer-like
 * ids first.
 * @param {Tree} root
 * @param {string | undefined} folder
 * @returns {string[]}
 */
function structureOf(root, folder) {
  /** @type {[string, string][]} */
  const places = []
  if (folder !== undefined) places.push([folder, '<folder>'], [safeRealpath(folder), '<folder>'])
  for (const temporary of TEMPORARY) places.push([temporary, '<tmp>'])
  const plain = (/** @type {string} */ name) => {
    let out = name
    for (const [path, placeholder] of places) {
      out = out.split(pathToFileURL(path).href).join(placeholder).split(path).join(placeholder)
    }
    return out
  }
  /** @type {string[]} */
  const lines = []
  const written = (/** @type {TreeEntry} */ entry) => entryWithoutId(entry) ? '-' : entry.options.id ?? '-'
  /** @param {Tree} tree @param {string} above */
  const walk = (tree, above) => {
    const entries = Object.values(tree.store ?? {})
    for (const entry of entries) {
      const id = `${above}/${written(entry)}`
      // A group's entries sit in its tree's store too; the group entry is the one whose context their group has.
      const group = entries.find(other => other === entry.parent?.ctx?.fiber?.entry)
      lines.push(`${id} ${plain(entry.options.name)}${group === undefined ? '' : ` in ${written(group)}`}`)
      if (entry.subtree !== undefined) walk(entry.subtree, id)
    }
  }
  walk(root, '')
  return lines.sort()
}

/** @param {string} path */
function isTemporary(path) {
  return TEMPORARY.some(temporary => path === temporary || path.startsWith(temporary + sep))
}

/**
 * `path` relative to `project`, `/`-separated.
 * @param {string} project
 * @param {string} path
 */
function fromProject(project, path) {
  return relative(project, path).split(sep).join('/')
}

/**
 * The configuration a boot from `root` boots (see the file's comment).
 * `where` is the test file that booted it, relative to the project, if any.
 * @param {Tree} root
 * @param {string} project
 * @param {string | undefined} where
 * @returns {string | null}
 */
export function configurationOf(root, project, where) {
  const named = outermostFile(root)
  const file = named === undefined ? undefined : named.startsWith('file:') ? fileURLToPath(named) : named
  const script = process.argv[1] === undefined ? undefined : fromProject(project, process.argv[1])
  // A project checked out under the temporary folder keeps its own files: only a file the project does not hold is a test's temporary one.
  const inProject = file !== undefined && isAbsolute(file) && (!isTemporary(file) || isTemporary(project)) && !fromProject(project, file).startsWith('../')
  if (inProject) return fromProject(project, /** @type {string} */ (file))
  if (file === undefined && where === undefined) return script ?? null
  const hash = createHash('sha256').update(JSON.stringify([file === undefined ? '' : basename(file), structureOf(root, file === undefined ? undefined : dirname(file))])).digest('hex').slice(0, 8)
  return `${where ?? script ?? ''} › ${file === undefined ? 'entries' : basename(file)}#${hash}`
}
