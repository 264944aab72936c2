import type { Context, Fiber } from '@deepseek-ai/cordis'
import type { Entry, EntryTree, Loader } from '@deepseek-ai/cordis-plugin-loader'
import type { Include } from '@deepseek-ai/cordis-plugin-include'
import { entryOfImport, labelOfEntry } from '../scenario/entry-labels.js'
import type { System } from '../system/system.ts'
import { attributeFibersBy, attributeFibersOf } from './sut-context.ts'

/**
 * Resolves a held import: called with the entry's loader id and the module specifier
 * the loader asked for, it returns the promise the scheduler settles.
 */
export type ImportHook = (entryId: string, specifier: string) => Promise<unknown>

/** The import hook of each interleaving, by the root context it runs in. */
const hooks = new WeakMap<Context, ImportHook>()

/** The operation label of a loader entry, by the one labelling rule (`scenario/entry-labels.js`, the preload's too). */
export function entryLabel(entry: Entry): string {
  return labelOfEntry(entry)
}

/** Finds the entry whose import is being asked for, by the one lookup the preload uses too; its label. */
function entryIdOf(tree: EntryTree, getOuterStack: (() => string[]) | undefined): string {
  const entry = entryOfImport(tree, getOuterStack)
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

/** The scheduled classes of one system. */
export interface ScheduledClasses {
  /** The root `Loader` with scheduled imports (see {@link scheduledClasses}). */
  readonly Loader: typeof Loader
  /** The `Include` tree (entries read from a file-backed cordis.yml) with scheduled imports; it never writes the file back. */
  readonly Include: typeof Include
}

const made = new WeakMap<object, ScheduledClasses>()

/**
 * The scheduled loader and include of `system`, subclassing that system's
 * own `Loader` and `Include`: every module import goes through the hook
 * registered for its root context (see {@link scheduleImports}), and
 * `cordis:include` mounts the scheduled include, so nested trees are
 * scheduled too; `cordis:group` is the loader's `Group`, as dsh's app boot
 * registers it. `cordis:` builtins pass through unchanged, as in the real
 * loader. The classes are made once per system, so every interleaving runs
 * the same (optimised) code.
 */
export function scheduledClasses(system: System): ScheduledClasses {
  let classes = made.get(system.loader)
  if (classes) return classes
  attributeFibersOf(system.cordis.Fiber)
  const { Loader: BaseLoader, Group } = system.loader
  const { Include: BaseInclude } = system.include

  class ScheduledInclude extends BaseInclude {
    override import(name: string, getOuterStack?: () => string[]) {
      if (name.startsWith('cordis:')) return super.import(name, getOuterStack)
      return scheduledImport(this, name, getOuterStack)
    }

    override write(): void {}
  }

  class ScheduledLoader extends BaseLoader {
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

  classes = { Loader: ScheduledLoader, Include: ScheduledInclude }
  made.set(system.loader, classes)
  return classes
}

/** Routes the imports of loaders mounted under `root` through `hook`. */
export function scheduleImports(root: Context, hook: ImportHook): void {
  hooks.set(root, hook)
}
