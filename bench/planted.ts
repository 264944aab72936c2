import { fileURLToPath } from 'node:url'
import type { BugId, PlantedBug } from './figures.ts'

/** Absolute path of one of the bench's own scenario files (kept out of `scenarios/`, which CI sweeps). */
export function benchScenario(file: string): string {
  return fileURLToPath(new URL(`./scenarios/${file}`, import.meta.url))
}

/** The 8-plugin workload of the cost, scale-out and memory sections. */
export const EIGHT_TOOLS = benchScenario('eight-tools.yml')

/** The planted order bugs, each among ten plugins. */
export const PLANTED: Readonly<Record<BugId, Omit<PlantedBug, 'plugins'> & { file: string }>> = {
  'depth-2': {
    id: 'depth-2',
    scenario: 'planted-depth2',
    file: benchScenario('planted-depth2.yml'),
    what: 'two plugins contribute a tool named `search`; the header keeps them in registration order',
  },
  'depth-3': {
    id: 'depth-3',
    scenario: 'planted-depth3',
    file: benchScenario('planted-depth3.yml'),
    what: 'probe-z registers `z_extra` only when tool-x has registered and tool-y has not (when: {after, before})',
  },
}

/** Both bugs, depth 2 first. */
export const BUG_IDS: readonly BugId[] = ['depth-2', 'depth-3']
