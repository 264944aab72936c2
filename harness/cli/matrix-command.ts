import { existsSync } from 'node:fs'
import { PACKAGE_ROOT } from '../package/files.ts'
import { parseChoiceList, VARIANT_NAMES, type VariantName } from '../sweep/settings.ts'
import { MATRIX_BUDGET_RATIONALE } from '../matrix/budget.ts'
import { runMatrix } from '../matrix/run.ts'
import { writeMatrixReport } from '../matrix/write.ts'
import type { OptionSpec, ParsedArgs } from './args.ts'
import { valueOf } from './args.ts'
import type { Command } from './command.ts'
import { DOCUMENT_OPTIONS, documentFormatsOf, reportOption } from './document-options.ts'
import { matrixSummary } from './matrix-summary.ts'
import { OPTIONS, readSettings } from './options.ts'
import { scenariosFrom } from './scenarios.ts'
import { supervised } from './supervised-run.ts'
import { EXIT } from './usage-error.ts'
import { parsedBy } from './values.ts'

/**
 * The file holding the matrix's rules, as loadrace's own folder holds it: the
 * TypeScript source in a checkout, the built JavaScript (comments kept) in an
 * installed package.
 */
const MATRIX_RULES = existsSync(new URL('harness/matrix/expectations.ts', PACKAGE_ROOT))
  ? 'harness/matrix/expectations.ts'
  : 'dist/harness/matrix/expectations.js of the loadrace package'


const VARIANTS_OPTION = {
  name: 'variants',
  value: 'LIST',
  default: 'all',
  help: `comma-separated rows: ${VARIANT_NAMES.join(', ')}`,
} as const satisfies OptionSpec

/** `--variants`, or every variant. */
function readVariants(args: ParsedArgs): VariantName[] {
  const text = valueOf(args, VARIANTS_OPTION.name)
  return text === undefined ? [...VARIANT_NAMES] : parsedBy(VARIANTS_OPTION.name, text, list => parseChoiceList(list, VARIANT_NAMES, 'variant'))
}

/** `loadrace matrix`: every ordering variant over the scenarios, each cell checked against the rules. */
export const matrixCommand: Command = {
  spec: {
    name: 'matrix',
    summary: 'sweep every ordering variant over the scenarios and check each cell against the rules',
    synopsis: 'matrix [FILE|DIR…] [options]',
    description: [
      'Sweeps each scenario under every ordering variant (the RFC\'s decision and the alternatives it rejected) against '
        + 'loadrace\'s reference, and prints a variant × scenario table of verdicts with the verdict the rules expect beside '
        + 'each cell. The rules derive each expectation from the scenario\'s definition alone and the RFC\'s prediction for '
        + 'the variant (each rule beside the RFC sentence it encodes, in ' + MATRIX_RULES + '), never from a sweep; e.g. registration-order must diverge wherever '
        + 'two plugins contribute unlisted tools, and canonical must be deterministic wherever a scenario of the canonical '
        + 'policy expects it. On a scenario\'s own policy the cell is its own sweep, which must also meet its expect block.',
      MATRIX_BUDGET_RATIONALE,
      'Goldens are compared, never written. Exit 0 when every cell meets its expectation, 1 otherwise.',
    ],
    operands: [{ name: 'FILE|DIR…', help: 'scenario files, or folders searched recursively (default: scenarios/)' }],
    options: [
      OPTIONS.strategy, DOCUMENT_OPTIONS.budget, OPTIONS.seed, OPTIONS.depth, OPTIONS.strength, VARIANTS_OPTION,
      OPTIONS.workers, OPTIONS.timeout, reportOption('matrix'), DOCUMENT_OPTIONS.format, OPTIONS.goldens,
    ],
    maxOperands: Infinity,
  },
  async run(args, cli) {
    const settings = readSettings(args, matrixCommand.spec, cli)
    const variants = readVariants(args)
    return supervised(cli, settings, async ({ runner, signal, interrupted, onProgress, clearProgress }) => {
      const scenarios = await scenariosFrom(args.operands)
      if (signal.aborted) return interrupted()!
      const report = await runMatrix(scenarios, settings, {
        variants,
        runner,
        signal,
        onProgress: onProgress(scenario => `${scenario.variant} · ${scenario.name}`),
      })
      clearProgress()
      const written = await writeMatrixReport(settings.report, report, documentFormatsOf(settings))
      cli.stdout.write(matrixSummary(report, written))
      // A harness fault is loadrace's own failure, not a finding about the system: exit 3, before any mismatch.
      return interrupted() ?? (report.summary.harnessFaults > 0 ? EXIT.internal : report.summary.mismatched > 0 || !report.complete ? EXIT.failed : EXIT.ok)
    })
  },
}
