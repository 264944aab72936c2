import type { DivergencePart } from '../verdict/divergence.ts'
import type { Verdict } from '../verdict/verdict.ts'
import type { Scenario } from '../scenario/scenario.ts'
import type { VariantName } from '../targets/catalogue.ts'
import { compareByLocale, compareCodeUnits } from './rfc.ts'
import {
  headerLogged, headerSize, nonCommutingListeners, racingContributors, statedUnlistedNames, unknownNameContributors, type Contributor,
} from './contributions.ts'

/**
 * The matrix's rule set: what each ordering variant must show on a scenario,
 * derived only from the scenario's definition (see `contributions.ts`) and
 * the RFC's prediction for that variant, each rule next to the RFC sentence
 * it encodes. No rule reads a sweep's output, and every cell expects one
 * verdict: a rule that accepted any verdict could never fail.
 */

/** What the dispatched requests of a cell's distinct outputs must show. */
export type RequestsExpectation =
  /** Every output dispatched the same requests. */
  | 'identical'
  /** As `identical`, except that an output may dispatch nothing and fail its turns with the reconstruction invariant's message. */
  | 'identical-or-invariant'

/** The expectation of one matrix cell (a variant on a scenario). */
export interface CellExpectation {
  verdict: Verdict
  /** Which rule produced it, in a few words. */
  rule: string
  /** The projection part a divergence must first differ in. */
  part?: DivergencePart
  /** Both blamed plugins must belong to one of these groups. */
  blame?: string[][]
  requests?: RequestsExpectation
  /** Against the golden of the scenario's own policy: `match` also accepts `none` (nothing pinned). */
  golden?: 'match' | 'mismatch'
  /** The cell is the scenario's own sweep (its own variant): it must also meet its `expect` block and its golden. */
  own?: true
}

/**
 * The race a canonical assembly leaves open, by the RFC's scope ("this fixes
 * the REGISTRATION-ORDER race, not plugin behavior"): `listeners` that do not
 * commute ("A system-prompt/assemble listener … owns the determinism of what
 * it emits"), or a race `beyond` the tool order the scenario states
 * (`expect.deterministic: false` under canonical with no such listeners: the
 * same tool name from two providers, which a stable sort keeps in provider
 * registration order, or prompt sections), which no ordering policy removes.
 */
export type Residual = { kind: 'none' } | { kind: 'listeners', ids: string[] } | { kind: 'beyond' }

/** What the rules read of one scenario: all from its definition. */
export interface ScenarioFacts {
  scenario: Scenario
  /** At least two plugins contribute unlisted tools to a logged header. */
  racing: Contributor[] | undefined
  residual: Residual
  /** Whether the turns log a header, and how many tools it carries. */
  headerLogged: boolean
  headerSize: number
  /** Every turn fails on an unknown toolOrder name, and these (≥ 2) plugins register the names the error lists. */
  unknownName: Contributor[] | undefined
}

/** The residual race of a scenario under canonical: stated by its `expect` block when canonical is its own policy. */
function residualOf(scenario: Scenario): Residual {
  const listeners = nonCommutingListeners(scenario)
  if (scenario.variant === 'canonical' && scenario.expect.deterministic) return { kind: 'none' }
  if (listeners !== undefined) return { kind: 'listeners', ids: listeners }
  return scenario.variant === 'canonical' ? { kind: 'beyond' } : { kind: 'none' }
}

/** The facts of a scenario the rules are stated in. */
export function scenarioFacts(scenario: Scenario): ScenarioFacts {
  return {
    scenario,
    racing: racingContributors(scenario),
    residual: residualOf(scenario),
    headerLogged: headerLogged(scenario),
    headerSize: headerSize(scenario),
    unknownName: unknownNameContributors(scenario),
  }
}

function ids(contributors: readonly Contributor[]): string[] {
  return contributors.map(contributor => contributor.id)
}

/** Blame groups: the racing contributors, and the listeners of a listener residual (whichever race a swap shows first). */
function groups(facts: ScenarioFacts, racing: readonly string[][]): string[][] {
  return facts.residual.kind === 'listeners' ? [...racing, facts.residual.ids] : [...racing]
}

/** What the RFC's decision shows: deterministic, except for the residual race the scenario has. */
function canonicalPrediction(facts: ScenarioFacts, why: string): CellExpectation {
  switch (facts.residual.kind) {
    case 'none': return { verdict: 'deterministic', rule: why }
    case 'listeners': return { verdict: 'divergent', rule: 'non-commuting listeners race', part: 'header', blame: [facts.residual.ids] }
    case 'beyond': return { verdict: 'divergent', rule: 'the race the scenario states survives any tool-order policy' }
  }
}

/** What a policy that keeps (some) registration order shows: divergent in the header where `racing` groups race. */
function registrationPrediction(facts: ScenarioFacts, racing: readonly string[][], rule: string, otherwise: string): CellExpectation {
  if (racing.length === 0) return canonicalPrediction(facts, otherwise)
  return { verdict: 'divergent', rule, part: 'header', blame: groups(facts, racing) }
}

/** Contributors that share a weight, one group per weight shared by at least two. */
function tiedGroups(contributors: readonly Contributor[]): string[][] {
  const byWeight = new Map<number, string[]>()
  for (const contributor of contributors) byWeight.set(contributor.weight, [...byWeight.get(contributor.weight) ?? [], contributor.id])
  return [...byWeight.values()].filter(group => group.length >= 2)
}

/** Whether sorting the unlisted names with `compare` gives another order than code-unit order does; undefined when names are unsaid. */
function comparatorDisagrees(scenario: Scenario, compare: (a: string, b: string) => number): boolean | undefined {
  const names = statedUnlistedNames(scenario)
  if (names === undefined) return undefined
  const codeUnits = [...names].sort(compareCodeUnits)
  const other = [...names].sort(compare)
  return codeUnits.some((name, i) => name !== other[i])
}

/** One variant's rule: its statement, the RFC sentence it encodes, and the prediction it makes for a scenario. */
export interface VariantRule {
  rule: string
  rfc: string
  predict(facts: ScenarioFacts): CellExpectation
}

/** Each variant's rule in one line, the RFC text it encodes, and its prediction. */
export const RULES: Readonly<Record<VariantName, VariantRule>> = {
  'canonical': {
    rule: 'deterministic, except where non-commuting listeners race, or where canonical is the scenario\'s own policy and its expect block states a race',
    rfc: 'The system-prompt assembly owns the canonical model-facing tool order, exactly where it already owns section order. […] Scope is deliberately narrow: this fixes the REGISTRATION-ORDER race, not plugin behavior.',
    predict: facts => canonicalPrediction(facts, 'the assembly owns the order'),
  },
  'registration-order': {
    rule: 'divergent in the header on every racing scenario, blaming two contributing plugins; elsewhere as canonical',
    rfc: 'Registration order (the status quo) — a concurrent-import race, host-dependent (the CI flake above), invisible in review.',
    predict: facts => registrationPrediction(facts, facts.racing ? [ids(facts.racing)] : [], 'racing', 'not racing'),
  },
  'registry-sort': {
    rule: 'as canonical: the registry sort is as deterministic, the objection is where it lives',
    rfc: 'Sorting in ToolRegistry.schemas() (the registry layer) — equally deterministic, but the registry is a membership store consumed by more than the assembly; ordering is a prompt-composition concern.',
    predict: facts => canonicalPrediction(facts, 'equally deterministic'),
  },
  'dependency-linearization': {
    rule: 'divergent in the header on every racing scenario (independent tool plugins tie), blaming two contributing plugins; elsewhere as canonical',
    rfc: 'A linearization of the plugin dependency graph — the relation is partial and independent tool plugins are incomparable; the flake happened with the partial order fully satisfied.',
    predict: facts => registrationPrediction(facts, facts.racing ? [ids(facts.racing)] : [], 'racing: independent plugins tie', 'not racing'),
  },
  'per-plugin-weight': {
    rule: 'on racing scenarios: divergent in the header, blaming two equal-weight contributors, when two contributors tie in weight (absent = 0); elsewhere as canonical',
    rfc: 'Per-plugin weight on each tool contribution — scatters the order across plugins yet still needs a global numbering convention nobody owns.',
    predict: facts => registrationPrediction(facts, facts.racing ? tiedGroups(facts.racing) : [], 'racing with tied weights', facts.racing ? 'racing with pairwise distinct weights' : 'not racing'),
  },
  'loop-order-tools': {
    rule: 'deterministic, listener races included (the loop sorts after the waterfall), except for a race the scenario states beyond the tool order',
    rfc: 'A LlmService config + orderTools() method the loop calls before logging the header — works, but adds a public service method and a loop edit solely to apply a policy at a distance.',
    predict: facts => facts.residual.kind === 'beyond'
      ? canonicalPrediction(facts, '')
      : { verdict: 'deterministic', rule: 'the loop-level sort works' },
  },
  'stream-normalize': {
    rule: 'where registration order would race (racing scenarios, non-commuting listeners): divergent in the header while the dispatched requests are identical (with the reconstruction invariant mounted, an output may instead fail its turns with the invariant\'s message); elsewhere as canonical',
    rfc: 'Normalizing inside llm.stream() — runs after the header event is logged (the flake survives) and rebuilds the deep-frozen envelope, silently disarming the reconstruction invariant.',
    predict: (facts) => {
      const expectation = registrationPrediction(facts, facts.racing ? [ids(facts.racing)] : [], 'racing: the header keeps the race', 'not racing')
      if (expectation.verdict !== 'divergent' || facts.residual.kind === 'beyond') return expectation
      return { ...expectation, part: 'header', requests: facts.scenario.invariant ? 'identical-or-invariant' : 'identical' }
    },
  },
  'locale-compare': {
    rule: 'as canonical; on a scenario of the canonical policy its golden mismatches exactly where locale order and code-unit order disagree on the unlisted tool names',
    rfc: 'When toolOrder is unset, the canonical order is plain lexicographic name order (code-unit comparison, locale-independent), so determinism requires no configuration.',
    predict: (facts) => {
      const expectation = canonicalPrediction(facts, 'a comparator is as deterministic')
      const disagrees = comparatorDisagrees(facts.scenario, compareByLocale)
      if (facts.scenario.variant !== 'canonical' || expectation.verdict !== 'deterministic' || disagrees === undefined) return expectation
      return { ...expectation, golden: disagrees ? 'mismatch' : 'match' }
    },
  },
  'unsorted-known-names': {
    rule: 'divergent in the errors, blaming two tool plugins, where every turn fails on an unknown toolOrder name and two plugins register the known names; elsewhere as canonical',
    rfc: 'Every turn fails identically until the config is fixed; the process itself stays up.',
    predict: facts => facts.unknownName
      ? { verdict: 'divergent', rule: 'turns fail on an unknown toolOrder name', part: 'errors', blame: [ids(facts.unknownName)] }
      : canonicalPrediction(facts, 'no unknown-name failure'),
  },
  'listener-random': {
    rule: 'uncontrolled wherever a header with at least two tools is logged; elsewhere as canonical',
    rfc: 'A system-prompt/assemble listener may still add, remove, or rearrange tools […] and owns the determinism of what it emits.',
    predict: facts => facts.headerLogged && facts.headerSize >= 2
      ? { verdict: 'uncontrolled', rule: 'a header with at least two tools' }
      : canonicalPrediction(facts, 'fewer than two header tools, or no header'),
  },
}

/** The verdict a scenario's `expect` block states for its own policy. */
export function statedVerdict(scenario: Scenario): Verdict {
  if (scenario.expect.outcome === 'stuck') return 'stuck'
  return scenario.expect.deterministic ? 'deterministic' : 'divergent'
}

/**
 * What `variant` must show on `scenario`: `stuck` wherever the scenario
 * expects every interleaving to be stuck (no policy can order what never
 * loads), else the variant's rule. On the scenario's own policy the cell is
 * the scenario's own sweep: its `expect` block states the verdict (which
 * wins should the rule say otherwise) and must be met, golden included.
 */
export function expectCell(variant: VariantName, scenario: Scenario, facts: ScenarioFacts = scenarioFacts(scenario)): CellExpectation {
  const predicted = scenario.expect.outcome === 'stuck'
    ? { verdict: 'stuck' as const, rule: 'every interleaving is expected stuck' }
    : RULES[variant].predict(facts)
  if (variant !== scenario.variant) return predicted
  const stated = statedVerdict(scenario)
  if (predicted.verdict === stated) return { ...predicted, own: true }
  return { verdict: stated, rule: `the scenario's own expect block (the rule predicts ${predicted.verdict})`, own: true }
}
