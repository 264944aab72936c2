import type { Context, Fiber } from '@deepseek-ai/cordis'
import { Group, Loader, type Entry, type EntryTree } from '@deepseek-ai/cordis-plugin-loader'
import { entryLabel as labelOfLoaderId } from '../scenario/entry-labels.ts'
import { Include } from '@deepseek-ai/cordis-plugin-include'
import { attributeFibersBy } from './sut-context.ts'

/**
 * Resolves a held import: called with the entry's loader id and the module specifier
 * the loader asked for, it returns the promise the scheduler settles.
 */
export type ImportHook = (entryId: string, specifier: string) => Promise<unknown>

/** The import hook of each interleaving, by the root context it runs in. */
const hooks = new WeakMap<Context, ImportHook>()

/** The operation label of a loader entry: its loader id mapped into the label alphabet (see `scenario/entry-labels.ts`). */
export function entryLabel(entry: Entry): string {
  return labelOfLoaderId(entry.id)
}

/** Finds the entry whose import is being asked for (each entry owns a distinct `getOuterStack`); its label. */
function entryIdOf(tree: EntryTree, getOuterStack: (() => string[]) | undefined): string {
  const entry = Object.values(tree.store).find(candidate => candidate.getOuterStack === getOuterStack)
  if (!entry) throw new Error('scheduled loader: an import was requested by no known entry')
  return entryLabel(entry)
}

/** The chain a fiber's work belongs to: the entry of the nearest fiber the loader created, if any. */
function chainOfFiber(fiber: Fiber): string | undefined {
  for (let current = fiber; ;) {
    if (current.entry) return entryLabel(current.entry)
    const parent = current.parent.fiber
    if (parent === current) return undefined
    current = parent
  }
}

attributeFibersBy(chainOfFiber)

/** Routes a non-builtin import of `tree` through the hook of its interleaving. */
function scheduledImport(tree: EntryTree, name: string, getOuterStack: (() => string[]) | undefined): Promise<unknown> {
  const hook = hooks.get(tree.ctx.root)
  if (!hook) throw new Error('scheduled loader: no import hook for this context')
  return hook(entryIdOf(tree, getOuterStack), name)
}

/** The `Include` tree (entries read from a file-backed cordis.yml) with scheduled imports; it never writes the file back. */
export class ScheduledInclude extends Include {
  override import(name: string, getOuterStack?: () => string[]) {
    if (name.startsWith('cordis:')) return super.import(name, getOuterStack)
    return scheduledImport(this, name, getOuterStack)
  }

  override write(): void {}
}

/**
 * The root `Loader` with scheduled imports: every module import goes through
 * the hook registered for its root context (see {@link scheduleImports}), and
 * `cordis:include` mounts {@link ScheduledInclude}, so nested trees are
 * scheduled too; `cordis:group` is the loader's `Group`, as dsh's app boot
 * registers it. `cordis:` builtins pass through unchanged, as in the real
 * loader. The classes are defined once, so every interleaving runs the same
 * (optimised) code.
 */
export class ScheduledLoader extends Loader {
  constructor(ctx: Context, config?: Loader.Config) {
    super(ctx, config)
    this.builtins.include = ScheduledInclude
    this.builtins.group = Group
  }

  override import(name: string, getOuterStack?: () => string[]) {
    if (name.startsWith('cordis:')) return super.import(name, getOuterStack)
    return scheduledImport(this, name, getOuterStack)
  }
}

/** Routes the imports of loaders mounted under `root` through `hook`. */
export function scheduleImports(root: Context, hook: ImportHook): void {
  hooks.set(root, hook)
}
