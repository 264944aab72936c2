import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { watchContributions } from '../../../harness/runtime/contributions.ts'
import { SystemPrompt } from '../../../src/system-prompt/service.ts'
import { ToolRegistry } from '../../../src/tools/registry.ts'

/** Whether the probe replaced the methods it observes on the live instances (own properties shadowing the class's). */
function observed(prompt: object, tools: object): boolean[] {
  return [Object.hasOwn(prompt, 'section'), Object.hasOwn(prompt, 'assemble'), Object.hasOwn(tools, 'register')]
}

describe('the contribution probe', () => {
  it('observes services root already has when watching starts', () => {
    const root = new Context()
    // Constructed on root itself, whose fiber is active: both services are there at once.
    const prompt = new SystemPrompt(root)
    const tools = new ToolRegistry(root)
    watchContributions(root)
    expect(observed(prompt, tools)).toEqual([true, true, true])
  })

  it('observes services provided after watching starts, as soon as root sees them, and adds no fiber of its own', async () => {
    const root = new Context()
    const fibers = () => [...root.registry.values()].reduce((count, runtime) => count + runtime.fibers.length, 0)
    const before = fibers()
    watchContributions(root)
    expect(fibers()).toBe(before)
    let prompt: object | undefined
    let tools: object | undefined
    root.plugin({ name: 'prompt', apply: (ctx: Context) => { prompt = new SystemPrompt(ctx) } })
    root.plugin({ name: 'tools', inject: ['systemPrompt'], apply: (ctx: Context) => { tools = new ToolRegistry(ctx) } })
    await new Promise(resolve => setTimeout(resolve, 0))
    if (!prompt || !tools) throw new Error('the services did not start')
    expect(observed(prompt, tools)).toEqual([true, true, true])
    // cordis announces a service again whenever it changes state; an instance already observed is not wrapped twice.
    const register = Object.getOwnPropertyDescriptor(tools, 'register')?.value
    root.reflect.notify(['tools'])
    expect(Object.getOwnPropertyDescriptor(tools, 'register')?.value).toBe(register)
  })
})
