import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';

/** What the figures were measured on. */
export interface MachineInfo {
  readonly nproc: number;
  readonly cpu: string;
  readonly node: string;
  readonly memoryGiB: number;
}

function cpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line !== undefined) return line.slice(line.indexOf(':') + 1).trim();
  } catch {
    // Not Linux: fall back to what Node reports.
  }
  return cpus()[0]?.model ?? 'unknown';
}

/** The machine this process runs on. */
export function machineInfo(): MachineInfo {
  return {
    nproc: availableParallelism(),
    cpu: cpuModel(),
    node: process.version,
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
  };
}
