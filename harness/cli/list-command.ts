import { spaceSize } from '../space/space.ts'
import { spaceOfScenario } from '../sweep/explore.ts'
import type { Command } from './command.ts'
import { scenariosFrom } from './scenarios.ts'
import { alignedTable } from './table.ts'
import { EXIT } from './usage-error.ts'

/** `loadrace list`: the scenarios, their plugin counts and the exact sizes of their interleaving spaces. */
export const listCommand: Command = {
  spec: {
    name: 'list',
    summary: 'list scenarios with the exact size of their interleaving spaces',
    synopsis: 'list [FILE|DIR…]',
    description: [
      'Loads and checks every scenario file (a malformed one exits 2 with its error line) and prints one row per '
        + 'scenario: name, plugin entries, the exact number of interleavings, variant, target and file. Nothing is run.',
    ],
    operands: [{ name: 'FILE|DIR…', help: 'scenario files, or folders searched recursively (default: scenarios/)' }],
    options: [],
    maxOperands: Infinity,
  },
  async run(args, cli) {
    const scenarios = await scenariosFrom(args.operands)
    const rows = scenarios.map(scenario => [
      scenario.name,
      String(scenario.plugins.length),
      spaceSize(spaceOfScenario(scenario)).toString(),
      scenario.variant,
      scenario.target,
      scenario.file,
    ])
    cli.stdout.write(alignedTable([['SCENARIO', 'PLUGINS', 'SPACE', 'VARIANT', 'TARGET', 'FILE'], ...rows], ['left', 'right', 'right']))
    return EXIT.ok
  },
}
