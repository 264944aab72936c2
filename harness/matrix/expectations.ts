import type { DivergencePart, ScenarioReport, Verdict } from '../report/types.ts'
import type { Scenario } from '../scenario/types.ts'
import type { VariantName } from '../../src/variants/types.ts'
import { variants } from '../../src/variants/index.ts'
import { compareCodeUnits } from '../../src/system-prompt/tool-order.ts'
import { canonicalTools, racingContributors, unknownNameContributors, unlistedContributors, type Contributor } from './contributions.ts'

/**
 * The matrix's rule set: what each ordering variant must show on a scenario,
 * derived from the scenario's own definition and its canonical sweep — never
 * from its name. One rule per variant; `RULES` states each in a line and
 * cites the RFC sentence it demonstrates.
 *
 * Terms: "racing" (see `racingContributors`) means the canonical outcome is
 * `completed` and at least two plugins contribute tools to the unlisted part
 * of the header. "Wherever canonical is" means: where canonical is
 * deterministic the variant must be too; where it is not (a residual race the
 * RFC leaves open, a stuck plugin), any verdict is accepted. "As canonical"
 * means the canonical verdict itself.
 */

/** A verdict, or `any` when the rule does not constrain it. */
export type ExpectedVerdict = Verdict | 'any'

/** What the dispatched requests of a cell's distinct outputs must show. */
export type RequestsExpectation =
  /** Every output dispatched the same requests. */
  | 'identical'
  /** As `identical`, except that an output may dispatch nothing and fail its turns with the reconstruction invariant's message. */
  | 'identical-or-invariant'

/** The expectation of one matrix cell (a variant on a scenario). */
export interface CellExpectation {
  verdict: ExpectedVerdict
  /** Which rule produced it, in a few words. */
  rule: string
  /** The projection part a divergence must first differ in. */
  part?: DivergencePart
  /** Both blamed plugins must belong to one of these groups. */
  blame?: string[][]
  requests?: RequestsExpectation
  /** The golden of the scenario's own (canonical) policy: `match` also accepts `none` (nothing pinned). */
  golden?: 'match' | 'mismatch'
}

/** A rule's statement and the RFC sentence it demonstrates. */
export interface VariantRule {
  rule: string
  rfc: string
}

/** Each variant's rule in one line, and the RFC text its row demonstrates. */
export const RULES: Readonly<Record<VariantName, VariantRule>> = {
  'canonical': {
    rule: 'deterministic wherever canonical is (the reference point of every other row)',
    rfc: 'The system-prompt assembly owns the canonical model-facing tool order, exactly where it already owns section order.',
  },
  'registration-order': {
    rule: 'divergent on every racing scenario, blaming two contributing plugins; elsewhere as canonical',
    rfc: 'Registration order (the status quo) — a concurrent-import race, host-dependent (the CI flake above), invisible in review.',
  },
  'registry-sort': {
    rule: 'deterministic wherever canonical is: the registry sort is as deterministic, the objection is where it lives',
    rfc: 'Sorting in ToolRegistry.schemas() (the registry layer) — equally deterministic, but the registry is a membership store consumed by more than the assembly; ordering is a prompt-composition concern.',
  },
  'dependency-linearization': {
    rule: 'divergent on every racing scenario, blaming two contributing plugins; elsewhere as canonical',
    rfc: 'A linearization of the plugin dependency graph — the relation is partial and independent tool plugins are incomparable; the flake happened with the partial order fully satisfied.',
  },
  'per-plugin-weight': {
    rule: 'on racing scenarios: divergent, blaming two equal-weight contributors, when two contributors tie in weight (absent = 0); deterministic wherever canonical is when all weights differ; elsewhere as canonical',
    rfc: 'Per-plugin weight on each tool contribution — scatters the order across plugins yet still needs a global numbering convention nobody owns.',
  },
  'loop-order-tools': {
    rule: 'deterministic wherever canonical is: the loop-level sort works, the objection is the policy at a distance',
    rfc: 'A LlmService config + orderTools() method the loop calls before logging the header — works, but adds a public service method and a loop edit solely to apply a policy at a distance.',
  },
  'stream-normalize': {
    rule: 'on racing scenarios: divergent in the header, blaming two contributing plugins, while the dispatched requests are identical wherever canonical\'s are (with the reconstruction invariant mounted, an output may instead fail its turns with the invariant\'s message); elsewhere as canonical',
    rfc: 'Normalizing inside llm.stream() — runs after the header event is logged (the flake survives) and rebuilds the deep-frozen envelope, silently disarming the reconstruction invariant.',
  },
  'locale-compare': {
    rule: 'deterministic wherever canonical is; on a canonical scenario its golden mismatches exactly where locale order and code-unit order disagree on the unlisted tool names',
    rfc: 'When toolOrder is unset, the canonical order is plain lexicographic name order (code-unit comparison, locale-independent), so determinism requires no configuration.',
  },
  'unsorted-known-names': {
    rule: 'divergent in the errors, blaming two tool plugins, where a turn fails on an unknown toolOrder name and two plugins register the known names; elsewhere deterministic wherever canonical is',
    rfc: 'Every turn fails identically until the config is fixed; the process itself stays up.',
  },
  'listener-random': {
    rule: 'uncontrolled wherever the canonical outcome is completed with at least two header tools; elsewhere as canonical',
    rfc: 'A system-prompt/assemble listener may still add, remove, or rearrange tools […] and owns the determinism of what it emits.',
  },
}

/** Deterministic where canonical is, anything where it is not. */
function whereverCanonicalIs(canonical: ScenarioReport, detail = ''): CellExpectation {
  const deterministic = canonical.verdict === 'deterministic'
  return { verdict: deterministic ? 'deterministic' : 'any', rule: `${deterministic ? 'deterministic as canonical' : 'canonical is not deterministic'}${detail}` }
}

/** The canonical verdict itself. */
function asCanonical(canonical: ScenarioReport, why: string): CellExpectation {
  return { verdict: canonical.verdict, rule: `as canonical (${why})` }
}

function ids(contributors: readonly Contributor[]): string[] {
  return contributors.map(contributor => contributor.id)
}

/** Contributors that share a weight, one group per weight shared by at least two. */
function tiedGroups(contributors: readonly Contributor[]): string[][] {
  const byWeight = new Map<number, string[]>()
  for (const contributor of contributors) byWeight.set(contributor.weight, [...byWeight.get(contributor.weight) ?? [], contributor.id])
  return [...byWeight.values()].filter(group => group.length >= 2)
}

/**
 * Whether sorting the names the assembly orders (the unlisted contributed
 * names) with `compare` gives another order than code-unit order does.
 */
function comparatorDisagrees(scenario: Scenario, canonical: ScenarioReport, compare: (a: string, b: string) => number): boolean {
  const names = unlistedContributors(scenario, canonicalTools(canonical)).flatMap(contributor => contributor.names)
  const codeUnits = [...names].sort(compareCodeUnits)
  const other = [...names].sort(compare)
  return codeUnits.some((name, i) => name !== other[i])
}

/** The facts of the canonical sweep a rule may need besides its report entry. */
export interface CanonicalFacts {
  report: ScenarioReport
  /** Whether every distinct canonical output dispatched the same requests. */
  requestsIdentical: boolean
}

/** What `variant` must show on `scenario`, given the scenario's canonical sweep. */
export function expectCell(variant: VariantName, scenario: Scenario, facts: CanonicalFacts): CellExpectation {
  const canonical = facts.report
  const racing = racingContributors(scenario, canonical)
  switch (variant) {
    case 'canonical':
    case 'registry-sort':
    case 'loop-order-tools':
      return whereverCanonicalIs(canonical)
    case 'registration-order':
    case 'dependency-linearization':
      if (!racing) return asCanonical(canonical, 'not racing')
      return { verdict: 'divergent', rule: 'racing', blame: [ids(racing)] }
    case 'per-plugin-weight': {
      if (!racing) return asCanonical(canonical, 'not racing')
      const tied = tiedGroups(racing)
      if (tied.length === 0) return whereverCanonicalIs(canonical, ', racing with pairwise distinct weights')
      return { verdict: 'divergent', rule: 'racing with tied weights', blame: tied }
    }
    case 'stream-normalize': {
      if (!racing) return asCanonical(canonical, 'not racing')
      const expectation: CellExpectation = { verdict: 'divergent', rule: 'racing', part: 'header', blame: [ids(racing)] }
      if (facts.requestsIdentical) expectation.requests = scenario.invariant ? 'identical-or-invariant' : 'identical'
      return expectation
    }
    case 'locale-compare': {
      const expectation = whereverCanonicalIs(canonical)
      if (scenario.variant === 'canonical' && canonical.verdict === 'deterministic') {
        const compare = variants['locale-compare'].compareNames ?? compareCodeUnits
        expectation.golden = comparatorDisagrees(scenario, canonical, compare) ? 'mismatch' : 'match'
      }
      return expectation
    }
    case 'unsorted-known-names': {
      const known = unknownNameContributors(scenario, canonical)
      if (!known) return whereverCanonicalIs(canonical)
      return { verdict: 'divergent', rule: 'turn fails on an unknown toolOrder name', part: 'errors', blame: [ids(known)] }
    }
    case 'listener-random':
      if (canonical.outcome === 'completed' && canonicalTools(canonical).length >= 2) {
        return { verdict: 'uncontrolled', rule: 'completed with at least two header tools' }
      }
      return asCanonical(canonical, 'fewer than two header tools, or no completed turn')
  }
}
