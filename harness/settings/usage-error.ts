/** A bad command line or setting: one line for stderr, naming the option or variable and what it allows. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}
