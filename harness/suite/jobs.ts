/**
 * `--jobs`: the tests whose results differ between runs are decided side by
 * side, each by its own reruns alone. The plan's runs of the whole command
 * never overlap; only those reruns do.
 */

/**
 * `work` applied to every item, at most `jobs` at a time, each started as
 * soon as a slot is free; the results in the items' order. With one job,
 * strictly one after another. After a failure no item starts, and the first
 * failure is thrown once every started one has ended.
 */
export async function inOrder<T, R>(items: readonly T[], jobs: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  let failure: { error: unknown } | undefined
  const worker = async (): Promise<void> => {
    while (next < items.length && failure === undefined) {
      const index = next++
      try {
        results[index] = await work(items[index]!)
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  // Every job ends before the first failure is thrown: nothing it started is left running.
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker))
  if (failure !== undefined) throw failure.error
  return results
}
