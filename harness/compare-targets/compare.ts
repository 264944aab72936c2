import { ASPECTS, type Aspect, type AspectDifference, type OutputObservation, type SeenValue } from './types.ts'

/** Each distinct value of `aspect` among the outputs, keyed by its JSON, with the first output's token. */
function seen(observations: readonly OutputObservation[], aspect: Aspect): Map<string, SeenValue> {
  const values = new Map<string, SeenValue>()
  for (const observation of observations) {
    const value: unknown = observation[aspect]
    const key = JSON.stringify(value)
    if (!values.has(key)) values.set(key, { value, token: observation.token })
  }
  return values
}

function missingFrom(side: Map<string, SeenValue>, other: Map<string, SeenValue>): SeenValue[] {
  return [...side].filter(([key]) => !other.has(key)).map(([, value]) => value)
}

/**
 * Compares what two sweeps of one scenario showed, aspect by aspect: the set
 * of header tool orders, of outcome kinds, and of misconfiguration messages
 * across their distinct outputs. Outputs are grouped by bytes, which differ
 * between implementations, so each aspect is compared as a set of values.
 * Returns one entry per aspect that differs (none when they agree).
 */
export function compareObservations(left: readonly OutputObservation[], right: readonly OutputObservation[]): AspectDifference[] {
  const differences: AspectDifference[] = []
  for (const aspect of ASPECTS) {
    const a = seen(left, aspect)
    const b = seen(right, aspect)
    const onlyLeft = missingFrom(a, b)
    const onlyRight = missingFrom(b, a)
    if (onlyLeft.length > 0 || onlyRight.length > 0) differences.push({ aspect, left: onlyLeft, right: onlyRight })
  }
  return differences
}
