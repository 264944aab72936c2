#!/usr/bin/env node
// The `loadrace` command. A checkout runs the TypeScript sources; an installed
// package runs the JavaScript built into dist/ when it was packed. Either way
// tsx is registered, for the TypeScript plugin modules scenarios may name.
import { existsSync } from 'node:fs'

// A reader that stops early (`| head`) closes the pipe; the command goes on, and still writes its report files.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error
  })
}

const checkout = existsSync(new URL('../harness/cli/main.ts', import.meta.url))
const harness = new URL(checkout ? '../harness/' : '../dist/harness/', import.meta.url)
const { enableTypeScript } = await import(new URL('typescript-loader.js', harness).href)
enableTypeScript()
const { main } = await import(new URL(checkout ? 'cli/main.ts' : 'cli/main.js', harness).href)
const code = await main(process.argv.slice(2))
// Exit explicitly (plugins under test may leave handles open), but only once
// stdout and stderr are flushed: a pipe takes a large write in pieces.
await Promise.all([process.stdout, process.stderr].map(stream => new Promise(resolve => stream.write('', resolve))))
process.exit(code)
