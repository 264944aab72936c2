/**
 * The published dsh packages (`@deepseek-ai/dsh-*@0.1.0-rc.8`) as a loadrace
 * target: the same scenarios and scheduled loader as the reference, run
 * against code nobody on this project wrote.
 *
 * Importing this module loads the packages; import it only when a scenario
 * targets `dsh`, so that reference runs never load them.
 */
import type { Context } from '@deepseek-ai/cordis'
import { DEFAULT_VARIANT } from '../catalogue.ts'
import type { Mounted, MountOptions, Target, TargetFeatures } from '../target.ts'
import { bootProblem, mountComposition } from './compose.ts'
import { ensurePromiseWithResolvers, suppliedShims } from './node20.ts'
import { hasTool, registerTool, TOOL_SERVICE } from './tools.ts'
import { runTurns } from './turns.ts'
import { DSH_PACKAGE_NAMES, loadPackages } from './packages.ts'
import { mountApplication } from './application.ts'
import { snapshotEnvironment, snapshotWorkspace } from './snapshot.ts'
import type { System } from '../../system/system.ts'

/** Why the published packages cannot run a scenario with these features, or undefined. */
function unsupported(features: TargetFeatures): string | undefined {
  if (features.variant !== DEFAULT_VARIANT) return 'the published packages implement only the canonical policy'
  if (features.app !== 'none' && features.app !== 'entries') return 'the RFC-era app chain (stdio-agent → agent-core → SystemPrompt) is not part of dsh: use app: none, or app: entries for an application of dsh'
  if (features.services === 'entries') return 'the dsh target mounts its services on the root context only (services: entries is not supported)'
  return undefined
}

function mount(root: Context, options: MountOptions): Mounted {
  ensurePromiseWithResolvers()
  if (options.app === 'entries') return mountApplication(root, options)
  const composition = mountComposition(root, options)
  return {
    entries: [],
    toolService: TOOL_SERVICE,
    // dsh has no per-contribution weight: `options.weight` is only read by the reference's per-plugin-weight variant.
    registerTool: (ctx, tool) => registerTool(ctx, tool),
    hasTool: (ctx, name) => hasTool(ctx, name),
    bootProblem: () => bootProblem(composition),
    runTurns: turns => runTurns(composition, options.environment, turns),
  }
}

/** The published dsh packages as a {@link Target}. */
export const dshTarget: Target = {
  name: 'dsh',
  unsupported,
  /** The project's own system, its dsh packages loaded. */
  async system(project: System) {
    await loadPackages(project)
    return project
  },
  describe: system => system.describe(DSH_PACKAGE_NAMES),
  /** A snapshot's replay variables and workspace, as dsh's snapshot harness sets them up. */
  isolation: (scenario, workdir) => scenario.snapshot === undefined
    ? {}
    : { env: snapshotEnvironment(scenario.snapshot, workdir), seed: snapshotWorkspace(scenario.snapshot) },
  mount,
  shims: suppliedShims,
}
