import { scenarioSpaces } from '../sweep/list.ts'
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
      'Loads and checks every scenario file (a malformed one exits 2 with its error line), runs each scenario once in '
        + 'declaration order to discover the operations its plugins add while booting (the timers they set up), and '
        + 'prints one row per scenario: name, plugin entries, the exact number of interleavings of the discovered space, '
        + 'variant, target and file. Below the table, each scenario whose discovered space differs from the one its file '
        + 'declares is listed with its chains.',
    ],
    operands: [{ name: 'FILE|DIR…', help: 'scenario files, or folders searched recursively (default: scenarios/)' }],
    options: [],
    maxOperands: Infinity,
  },
  async run(args, cli) {
    const spaces = await scenarioSpaces(await scenariosFrom(args.operands))
    const rows = spaces.map(({ scenario, size }) => [scenario.name, String(scenario.plugins.length), size.toString(), scenario.variant, scenario.target, scenario.file])
    const discovered = spaces.flatMap(({ scenario, discovered }) => discovered === undefined ? [] : [
      `${scenario.name} (declared: ${discovered.declaredSize} interleavings; discovered by running it):`,
      ...discovered.chains.map(ops => `  ${ops.join(' → ')}`),
    ])
    cli.stdout.write(alignedTable([['SCENARIO', 'PLUGINS', 'SPACE', 'VARIANT', 'TARGET', 'FILE'], ...rows], ['left', 'right', 'right']))
    if (discovered.length > 0) cli.stdout.write(`\n${discovered.join('\n')}\n`)
    return EXIT.ok
  },
}
