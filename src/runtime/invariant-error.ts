/** A dev-time invariant of one package was violated: `invariant violated by "<owner>": <detail>`. */
export class InvariantError extends Error {
  override name = 'InvariantError'

  constructor(readonly owner: string, readonly detail: string) {
    super(`invariant violated by "${owner}": ${detail}`)
  }
}
