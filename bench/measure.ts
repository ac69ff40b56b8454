// Helpers every benchmark shares: repeatable inputs and robust figures.

/** Deterministic pseudo-random numbers, so every run measures the same text. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * CPU milliseconds of a run. The machine may be shared: wall time then measures the neighbours as much as the code,
 * while CPU time of this process does not (it includes V8's helper threads, e.g. for GC).
 */
export function cpuTime(run: () => unknown): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const gc = (globalThis as { gc?: () => void }).gc;
/** Whether the process runs with --expose-gc, without which heap figures include garbage. */
export const collectsGarbage = gc !== undefined;

/** The heap in use after two full collections (when run with --expose-gc; else as it is). */
export function heapAfterGc(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

/** Heap kept alive by what `make` returns (it is dropped before the next measurement). */
export function retainedBy(make: () => unknown): number {
  const before = heapAfterGc();
  let kept: unknown = make();
  const bytes = heapAfterGc() - before;
  if (kept) kept = undefined;
  return bytes;
}
