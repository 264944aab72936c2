import type { Context } from '@deepseek-ai/cordis'
import { Group, Loader, type EntryTree } from '@deepseek-ai/cordis-plugin-loader'
import { Include } from '@deepseek-ai/cordis-plugin-include'

/**
 * Resolves a held import: called with the entry's loader id and the module specifier
 * the loader asked for, it returns the promise the scheduler settles.
 */
export type ImportHook = (entryId: string, specifier: string) => Promise<unknown>

/** The import hook of each interleaving, by the root context it runs in. */
const hooks = new WeakMap<Context, ImportHook>()

/** Finds the entry whose import is being asked for (each entry owns a distinct `getOuterStack`); its loader id, nested ids joined by `:`. */
function entryIdOf(tree: EntryTree, getOuterStack: (() => string[]) | undefined): string {
  const entry = Object.values(tree.store).find(candidate => candidate.getOuterStack === getOuterStack)
  if (!entry) throw new Error('scheduled loader: an import was requested by no known entry')
  return entry.id
}

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
