/**
 * The ACP transport loadrace owns, against an agent end written here: the
 * messages the client sends for each step, how it waits for answers, how it
 * answers a permission request, and what it does when the connection ends.
 */
import { describe, expect, it } from 'vitest'
import { AcpClient, AcpError, acpTransport, driveSteps } from '../../../harness/targets/dsh/acp-client.ts'

type Message = Record<string, unknown>

/** An agent end that records what it receives and answers with `respond` (undefined: no answer). */
function agent(transport: ReturnType<typeof acpTransport>, respond: (message: Message, send: (message: Message) => Promise<void>) => Message | undefined | Promise<Message | undefined>) {
  const received: Message[] = []
  const writer = transport.agent.writable.getWriter()
  const send = (message: Message) => writer.write(message)
  void (async () => {
    const reader = transport.agent.readable.getReader()
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      received.push(value)
      const answer = await respond(value, send)
      if (answer !== undefined) await send(answer)
    }
    await writer.close()
  })()
  return { received }
}

describe('the ACP client', () => {
  it('drives initialize, session/new in the working directory and one prompt, as dsh\'s snapshot harness does', async () => {
    const transport = acpTransport()
    const { received } = agent(transport, (message) => {
      if (message.method === 'session/new') return { jsonrpc: '2.0', id: message.id, result: { sessionId: 'session-1' } }
      return { jsonrpc: '2.0', id: message.id, result: message.method === 'session/prompt' ? { stopReason: 'end_turn' } : {} }
    })
    const client = new AcpClient(transport)
    const driven = await driveSteps(client, [{ op: 'initialize' }, { op: 'newSession' }, { op: 'prompt', text: 'PONG?' }], '/work/dir')
    expect(driven).toEqual({ sessionId: 'session-1', failures: [] })
    expect(received).toEqual([
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } },
      { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/work/dir', mcpServers: [] } },
      { jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: 'session-1', prompt: [{ type: 'text', text: 'PONG?' }] } },
    ])
    await client.close()
  })

  it('keeps notifications, answers a permission request with the scripted option (else cancelled) and refuses what it does not offer', async () => {
    const transport = acpTransport()
    const answers: Message[] = []
    agent(transport, async (message, send) => {
      if (message.id === undefined || 'result' in message || 'error' in message) {
        answers.push(message)
        return undefined
      }
      await send({ jsonrpc: '2.0', method: 'session/update', params: { update: 'one' } })
      const options = [{ optionId: 'yes', kind: 'allow_once' }, { optionId: 'no', kind: 'reject_once' }]
      await send({ jsonrpc: '2.0', id: 'p1', method: 'session/request_permission', params: { options } })
      await send({ jsonrpc: '2.0', id: 'p2', method: 'session/request_permission', params: { options } })
      await send({ jsonrpc: '2.0', id: 'f1', method: 'fs/read_text_file', params: {} })
      return { jsonrpc: '2.0', id: message.id, result: {} }
    })
    const client = new AcpClient(transport, [{ kind: 'reject_once' }])
    await client.request('initialize', {})
    await new Promise(resolve => setTimeout(resolve, 10))
    expect(client.notifications).toEqual([{ jsonrpc: '2.0', method: 'session/update', params: { update: 'one' } }])
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 'p1', result: { outcome: { outcome: 'selected', optionId: 'no' } } },
      { jsonrpc: '2.0', id: 'p2', result: { outcome: { outcome: 'cancelled' } } },
      { jsonrpc: '2.0', id: 'f1', error: { code: -32601, message: 'the loadrace client does not offer fs/read_text_file' } },
    ])
    await client.close()
  })

  it('rejects with the agent\'s error, and every request still waiting when the connection closes', async () => {
    const transport = acpTransport()
    agent(transport, message => message.method === 'session/new'
      ? { jsonrpc: '2.0', id: message.id, error: { code: -32602, message: 'Invalid params', data: { details: 'cwd must be absolute' } } }
      : undefined)
    const client = new AcpClient(transport)
    await expect(client.request('session/new', { cwd: 'relative' })).rejects.toThrow(new AcpError('Invalid params: cwd must be absolute'))
    const waiting = client.request('initialize', {})
    await client.close()
    await expect(waiting).rejects.toThrow('the ACP connection closed before the agent answered')
  })

  it('records a prompt the agent answers with an error as a failed turn and sends the next step', async () => {
    const transport = acpTransport()
    const { received } = agent(transport, (message) => {
      if (message.method === 'session/new') return { jsonrpc: '2.0', id: message.id, result: { sessionId: 'session-1' } }
      if (message.method === 'session/prompt' && (message.params as { prompt: { text: string }[] }).prompt[0]!.text === 'first') {
        return { jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'Internal error: turn failed: no API key' } }
      }
      return { jsonrpc: '2.0', id: message.id, result: {} }
    })
    const client = new AcpClient(transport)
    const driven = await driveSteps(client, [{ op: 'newSession' }, { op: 'prompt', text: 'first' }, { op: 'prompt', text: 'second' }], '/')
    expect(driven).toEqual({ sessionId: 'session-1', failures: [{ method: 'session/prompt', message: 'Internal error: turn failed: no API key' }] })
    expect(received.map(message => message.method)).toEqual(['session/new', 'session/prompt', 'session/prompt'])
    await client.close()
  })

  it('refuses a prompt before a session', async () => {
    const client = new AcpClient(acpTransport())
    await expect(driveSteps(client, [{ op: 'prompt', text: 'x' }], '/')).rejects.toThrow('prompt before newSession')
  })
})
