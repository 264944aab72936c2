import { cpus, homedir, loadavg, tmpdir } from 'node:os'
import type { MachineInfo } from './figures.ts'
import type { Workdir } from '../harness/targets/target.ts'

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

/**
 * The folders a boot measured without the scheduler runs in: the process's
 * own (the harness gives every interleaving a fresh temporary folder, which
 * is part of what it costs).
 */
export const HERE: Workdir = { root: tmpdir(), cwd: process.cwd(), home: homedir() }
