#!/usr/bin/env node
// The `loadrace` command. The harness is TypeScript: register tsx, then run it.
import { register } from 'tsx/esm/api'

register()
// tsx turns source maps on; cordis builds many stack traces, which they make slow.
process.setSourceMapsEnabled(false)
const { main } = await import('../harness/cli/main.ts')
// Exit explicitly: plugins under test may leave handles open.
process.exit(await main(process.argv.slice(2)))
