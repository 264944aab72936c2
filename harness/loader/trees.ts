import type { Context } from '@deepseek-ai/cordis'
import { Loader, type EntryTree } from '@deepseek-ai/cordis-plugin-loader'
import { Include } from '@deepseek-ai/cordis-plugin-include'

/**
 * Resolves a held import: called with the entry id and the module specifier
 * the loader asked for, it returns the promise the scheduler settles.
 */
export type ImportHook = (entryId: string, specifier: string) => Promise<unknown>

/** Finds the entry whose import is being asked for: each entry owns a distinct `getOuterStack`. */
function entryIdOf(tree: EntryTree, getOuterStack: (() => string[]) | undefined): string {
  const entry = Object.values(tree.store).find(candidate => candidate.getOuterStack === getOuterStack)
  if (!entry) throw new Error('scheduled loader: an import was requested by no known entry')
  return entry.options.id
}

/**
 * Builds the two entry-tree classes of one interleaving, both routing module
 * imports through `hook`: the root `Loader` (entries given in memory) and the
 * `Include` tree (entries read from a file-backed cordis.yml). `cordis:`
 * builtins pass through unchanged, as in the real loader.
 */
export function scheduledTrees(hook: ImportHook) {
  class ScheduledLoader extends Loader {
    constructor(ctx: Context, config?: Loader.Config) {
      super(ctx, config)
      this.builtins.include = ScheduledInclude
    }

    override import(name: string, getOuterStack?: () => string[]) {
      if (name.startsWith('cordis:')) return super.import(name, getOuterStack)
      return hook(entryIdOf(this, getOuterStack), name)
    }
  }

  class ScheduledInclude extends Include {
    override import(name: string, getOuterStack?: () => string[]) {
      if (name.startsWith('cordis:')) return super.import(name, getOuterStack)
      return hook(entryIdOf(this, getOuterStack), name)
    }
  }

  return { Loader: ScheduledLoader, Include: ScheduledInclude }
}
