/**
 * Holds the clocks of this realm for the system under test (see
 * `held-clocks.js`): code running in an interleaving's scope reads the held
 * time its interleaving gives (`SutMonitor.clockReading`), loadrace's own code
 * the real clocks; so does the system of an interleaving run with
 * `control: 'order-only'`, whose monitor gives no held time. Imported for its effect, once per process.
 */
import './real-clock.ts'
import { holdClocks } from './held-clocks.js'
import { currentScope } from './sut-context.ts'

holdClocks((api) => {
  const scope = currentScope()
  return scope === undefined ? undefined : scope.monitor.clockReading?.(scope.chain, api)
})
