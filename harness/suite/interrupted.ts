/** The run was interrupted (SIGINT, SIGTERM): what was running gives no result, and nothing further starts. */
export class Interrupted extends Error {
  override readonly name = 'Interrupted'

  constructor(readonly during: string) {
    super(`interrupted during ${during}`)
  }
}
