import { createServer, type Server } from 'node:net'
import { describe, expect, it } from 'vitest'
import { destroyWatch } from '../../../harness/runtime/destroy-watch.ts'

/** A listening server, and the async id of its handle. */
async function listening(): Promise<{ server: Server, id: number }> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const handle = (server as unknown as { _handle: { getAsyncId(): number } })._handle
  return { server, id: handle.getAsyncId() }
}

function closed(server: Server): Promise<void> {
  return new Promise(resolve => server.close(() => resolve()))
}

/** Lets the destroy queue Node drains after a handle's close callback run. */
function drained(): Promise<void> {
  return new Promise(resolve => setTimeout(resolve, 20))
}

describe('destroyWatch', () => {
  it('hears the destruction of a handle created before it was enabled, then turns itself off once idle', async () => {
    const tracked = new Set<number>()
    const heard: number[] = []
    const watch = destroyWatch((id) => {
      heard.push(id)
      tracked.delete(id)
    }, () => tracked.size === 0)
    const first = await listening()
    // Enabled after the handle was created: Node asks the hooks enabled when a resource is destroyed.
    tracked.add(first.id)
    watch.tracking()
    await closed(first.server)
    await drained()
    expect(heard).toContain(first.id)
    // Nothing tracked any more: the hook is off, and a later destruction is not heard.
    const second = await listening()
    await closed(second.server)
    await drained()
    expect(heard).not.toContain(second.id)
  })

  it('stays on while anything is tracked, and settle() turns it off only once idle', async () => {
    let tracking = true
    const heard: number[] = []
    const watch = destroyWatch(id => heard.push(id), () => !tracking)
    watch.tracking()
    const first = await listening()
    await closed(first.server)
    await drained()
    expect(heard).toContain(first.id)
    tracking = false
    watch.settle()
    const second = await listening()
    await closed(second.server)
    await drained()
    expect(heard).not.toContain(second.id)
  })
})
