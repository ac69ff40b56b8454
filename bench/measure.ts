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
