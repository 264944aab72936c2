// Entry point of a pool worker thread: a worker does not inherit the parent's
// module hooks, so make TypeScript importable here, then start the worker.
import { enableTypeScript } from '../typescript-loader.js'

enableTypeScript()
await import('./worker.ts')
