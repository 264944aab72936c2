/**
 * The client end of an ACP connection loadrace owns: JSON-RPC 2.0 messages as
 * objects over a pair of web streams, the transport the ACP bridge of dsh
 * (`@deepseek-ai/dsh-acp`) accepts in place of the process's stdio. It drives
 * the steps of a snapshot's `input.json` the way dsh's snapshot harness does
 * (`initialize`, `session/new` in the interleaving's working directory,
 * `session/prompt`), answers permission requests from the snapshot's scripted
 * answers (else `cancelled`), and keeps the agent's notifications.
 */
import type { AcpStep, PermissionAnswer } from './snapshot.ts'

/** The ACP protocol version dsh's bridge and its snapshot harness speak. */
export const ACP_PROTOCOL_VERSION = 1

type Message = Record<string, unknown>

/** The two ends of the in-memory connection: the bridge's (its `stream` config) and the client's. */
export interface AcpTransport {
  /** What the bridge reads requests from and writes answers to. */
  readonly agent: { readable: ReadableStream<Message>, writable: WritableStream<Message> }
  readonly client: { readable: ReadableStream<Message>, writable: WritableStream<Message> }
}

/** A fresh in-memory connection. */
export function acpTransport(): AcpTransport {
  const toAgent = new TransformStream<Message, Message>()
  const toClient = new TransformStream<Message, Message>()
  return {
    agent: { readable: toAgent.readable, writable: toClient.writable },
    client: { readable: toClient.readable, writable: toAgent.writable },
  }
}

/** Raised when the agent answers a request with an error; the message is the agent's. */
export class AcpError extends Error {
  override readonly name = 'AcpError'
}

function errorText(error: unknown): string {
  const record = typeof error === 'object' && error !== null ? error as { message?: unknown, data?: unknown } : {}
  const data = typeof record.data === 'object' && record.data !== null ? (record.data as { details?: unknown }).details : undefined
  return [record.message, data].filter(part => typeof part === 'string' && part !== '').join(': ') || JSON.stringify(error)
}

/** One ACP client on a transport: requests with their answers, permission answers, the notifications received. */
export class AcpClient {
  /** Every notification the agent sent (`session/update`, …), in order. */
  readonly notifications: Message[] = []
  private readonly writer: WritableStreamDefaultWriter<Message>
  private readonly pending = new Map<number, { resolve(result: unknown): void, reject(error: Error): void }>()
  private nextId = 0
  private readonly answers: PermissionAnswer[]
  private closed = false

  constructor(transport: AcpTransport, answers: readonly PermissionAnswer[] = []) {
    this.writer = transport.client.writable.getWriter()
    this.answers = [...answers]
    void this.read(transport.client.readable.getReader())
  }

  /** Sends a request and resolves with its result (rejects with the agent's error). */
  request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      this.writer.write({ jsonrpc: '2.0', id, method, params }).catch(reject)
    })
  }

  /** Ends the connection: the bridge sees its input end, as the app sees stdin end. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.writer.close().catch(() => {})
  }

  private async read(reader: ReadableStreamDefaultReader<Message>): Promise<void> {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }))
      if (done || value === undefined) break
      this.receive(value)
    }
    for (const waiting of this.pending.values()) waiting.reject(new AcpError('the ACP connection closed before the agent answered'))
    this.pending.clear()
  }

  private receive(message: Message): void {
    const { id, method } = message
    if (typeof method !== 'string') {
      const waiting = typeof id === 'number' ? this.pending.get(id) : undefined
      if (!waiting) return
      this.pending.delete(id as number)
      if ('error' in message) waiting.reject(new AcpError(errorText(message.error)))
      else waiting.resolve(message.result)
      return
    }
    if (id === undefined) {
      this.notifications.push(message)
      return
    }
    void this.writer.write({ jsonrpc: '2.0', id, ...this.answer(method, message.params) }).catch(() => {})
  }

  /** The client's answer to a request from the agent: a scripted permission, else `cancelled`; nothing else is offered. */
  private answer(method: string, params: unknown): Message {
    if (method !== 'session/request_permission') return { error: { code: -32601, message: `the loadrace client does not offer ${method}` } }
    const answer = this.answers.shift()
    const options = (params as { options?: { kind?: unknown, optionId?: unknown }[] } | undefined)?.options ?? []
    const option = answer === undefined ? undefined : options.find(candidate => candidate.kind === answer.kind)
    return option === undefined
      ? { result: { outcome: { outcome: 'cancelled' } } }
      : { result: { outcome: { outcome: 'selected', optionId: option.optionId } } }
  }
}

/** What driving the steps gave: the session the agent created, and the prompts it answered with an error, in order. */
export interface DrivenSteps {
  sessionId: string | undefined
  failures: { method: string, message: string }[]
}

/**
 * Drives `steps` on the client as dsh's snapshot harness does, with
 * `session/new` in `cwd`; returns the session id the agent created and the prompts it failed.
 */
export async function driveSteps(client: AcpClient, steps: readonly AcpStep[], cwd: string): Promise<DrivenSteps> {
  let sessionId: string | undefined
  const failures: DrivenSteps['failures'] = []
  for (const step of steps) {
    switch (step.op) {
      case 'initialize':
        await client.request('initialize', { protocolVersion: ACP_PROTOCOL_VERSION, clientCapabilities: {} })
        break
      case 'newSession':
        sessionId = String((await client.request('session/new', { cwd, mcpServers: [] }) as { sessionId?: unknown }).sessionId)
        break
      case 'prompt':
      case 'promptContent': {
        if (sessionId === undefined) throw new AcpError(`${step.op} before newSession`)
        const prompt = step.op === 'prompt' ? [{ type: 'text', text: step.text }] : step.content
        // A failed turn is the application's answer, not the client's failure: it is recorded and the next step is sent.
        await client.request('session/prompt', { sessionId, prompt }).catch((error: unknown) => {
          if (!(error instanceof AcpError)) throw error
          failures.push({ method: 'session/prompt', message: error.message })
        })
        break
      }
    }
  }
  return { sessionId, failures }
}
