// Entry point of a pool worker process: it does not inherit the parent's
// module hooks, so make TypeScript importable here, then start the worker.
import { enableTypeScript } from '../typescript-loader.js'

enableTypeScript()
await import('./worker.ts')
