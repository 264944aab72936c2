/**
 * The registry of targets: each name mapped to its definition. The harness
 * asks it, never a target by name; a new target is a file under
 * `harness/targets/` and one line here.
 */
import { VARIANT_NAMES } from './catalogue.ts'
import type { SnapshotTarget, TargetDefinition } from './definition.ts'
import { dshDefinition } from './dsh/definition.ts'
import { referenceDefinition } from './reference-definition.ts'
import type { Target } from './target.ts'

const registered = new Map<string, TargetDefinition>()
const loaded = new Map<string, Promise<Target>>()

/** Adds a target, and returns what removes it again; a second target of one name is refused. */
export function registerTarget(definition: TargetDefinition): () => void {
  if (registered.has(definition.name)) throw new Error(`a target named "${definition.name}" is registered already`)
  registered.set(definition.name, definition)
  return () => {
    registered.delete(definition.name)
    loaded.delete(definition.name)
  }
}

registerTarget(referenceDefinition)
registerTarget(dshDefinition)

/** The target a scenario runs against unless it says otherwise. */
export const DEFAULT_TARGET = referenceDefinition.name

/** Every registered target's name, in registration order. */
export function targetNames(): string[] {
  return [...registered.keys()]
}

/** Whether `name` names a registered target. */
export function isTargetName(name: unknown): name is string {
  return typeof name === 'string' && registered.has(name)
}

/** The definition of the target `name`, or undefined when none is registered under it (a report read from elsewhere). */
export function findTarget(name: string): TargetDefinition | undefined {
  return registered.get(name)
}

/** The definition of the target `name` (a name the scenario loader or the command checked). */
export function targetNamed(name: string): TargetDefinition {
  const definition = registered.get(name)
  if (definition === undefined) throw new Error(`unknown target "${name}" (known: ${targetNames().join(', ')})`)
  return definition
}

/**
 * The target called `name`, its code loaded. Each is imported on first use,
 * so a sweep of the reference never loads the published dsh packages (nor
 * their Node 20 shim).
 */
export function loadTarget(name: string): Promise<Target> {
  let target = loaded.get(name)
  if (!target) {
    target = targetNamed(name).load()
    loaded.set(name, target)
  }
  return target
}

/** The targets that mount the application a cordis.yml names (`app: entries`). */
export function applicationTargets(): TargetDefinition[] {
  return [...registered.values()].filter(definition => definition.applications)
}

/** The target a bare cordis.yml is swept against. */
export function bareConfigurationTarget(): TargetDefinition {
  return [...registered.values()].find(definition => definition.bareConfigurations === true) ?? targetNamed(DEFAULT_TARGET)
}

/** The target whose snapshot suite `loadrace snapshots` reads, and that suite. */
export function snapshotTarget(): SnapshotTarget {
  const found = [...registered.values()].find(definition => definition.snapshots !== undefined)
  if (found === undefined) throw new Error('no registered target reads snapshot folders')
  return found as SnapshotTarget
}

/** The target that runs every variant: the matrix's. */
export function everyVariantTarget(): TargetDefinition {
  const found = [...registered.values()].find(definition => VARIANT_NAMES.every(variant => definition.variants.includes(variant)))
  if (found === undefined) throw new Error('no registered target runs every variant')
  return found
}

/** The two targets `diff-targets` compares, in report order. */
export function comparedTargets(): [string, string] {
  const names = [...registered.values()].filter(definition => definition.compared === true).map(definition => definition.name)
  if (names.length !== 2) throw new Error(`diff-targets compares two targets; ${names.length} are marked compared (${names.join(', ')})`)
  return [names[0]!, names[1]!]
}
