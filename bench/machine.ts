import { cpus, loadavg } from 'node:os'
import type { MachineInfo } from './figures.ts'

/** The machine the bench runs on. */
export function machineInfo(): MachineInfo {
  const processors = cpus()
  const [one, five, fifteen] = loadavg()
  return {
    cpuModel: processors[0]?.model.trim() || 'unknown',
    cores: processors.length,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    loadAverage: [one ?? 0, five ?? 0, fifteen ?? 0],
  }
}
