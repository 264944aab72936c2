import { spaceSize } from '../space/space.ts'
import { sameSpace } from '../space/discovered.ts'
import { discoverSpace } from '../explore/explore.ts'
import { spaceOfScenario } from '../explore/declared-space.ts'
import { runnersFor } from '../runners/by-host.ts'
import { hostsOf } from '../sweep/sweep.ts'
import { onHost } from '../scenario/overrides.ts'
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
    const scenarios = await scenariosFrom(args.operands)
    const runners = runnersFor({ workers: 1 })
    const rows: string[][] = []
    const discovered: string[] = []
    for (const scenario of scenarios) {
      const declared = spaceOfScenario(scenario)
      // Discovered on the host a sweep runs the scenario on by default (Node 22 for dsh, when installed).
      const host = hostsOf(scenario, { runners })[0]!
      const space = await discoverSpace(onHost(scenario, host), runners.of(host))
      rows.push([scenario.name, String(scenario.plugins.length), spaceSize(space).toString(), scenario.variant, scenario.target, scenario.file])
      if (sameSpace(space, declared)) continue
      discovered.push(`${scenario.name} (declared: ${spaceSize(declared)} interleavings; discovered by running it):`)
      for (const chain of space.chains) discovered.push(`  ${chain.ops.join(' → ')}`)
    }
    await runners.close()
    cli.stdout.write(alignedTable([['SCENARIO', 'PLUGINS', 'SPACE', 'VARIANT', 'TARGET', 'FILE'], ...rows], ['left', 'right', 'right']))
    if (discovered.length > 0) cli.stdout.write(`\n${discovered.join('\n')}\n`)
    return EXIT.ok
  },
}
