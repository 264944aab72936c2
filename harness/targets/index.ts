import type { Target, TargetName } from './types.ts'

const loaded = new Map<TargetName, Promise<Target>>()

/**
 * The target called `name`. Each is imported on first use, so a sweep of the
 * reference never loads the published dsh packages (nor their Node 20 shim).
 */
export function loadTarget(name: TargetName): Promise<Target> {
  let target = loaded.get(name)
  if (!target) {
    target = name === 'dsh'
      ? import('./dsh/index.ts').then(module => module.dshTarget)
      : import('./reference.ts').then(module => module.referenceTarget)
    loaded.set(name, target)
  }
  return target
}
