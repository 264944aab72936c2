/**
 * Parses a comma-separated list of names, each one of `allowed` (e.g.
 * `json,md`). Blanks around entries are ignored and repeats are kept once; an
 * empty list or an unknown entry throws an error naming it and the allowed
 * names. `noun` says what the names are, e.g. `report format`.
 */
export function parseChoiceList<const T extends string>(text: string, allowed: readonly T[], noun: string): T[] {
  const listed = allowed.join(', ')
  const entries = text.split(',').map((entry) => entry.trim())
  if (entries.every((entry) => entry === '')) throw new Error(`no ${noun} given; allowed: ${listed}`)
  const chosen: T[] = []
  for (const entry of entries) {
    const known = allowed.find((name) => name === entry)
    if (known === undefined) throw new Error(`unknown ${noun} ${JSON.stringify(entry)}; allowed: ${listed}`)
    if (!chosen.includes(known)) chosen.push(known)
  }
  return chosen
}
