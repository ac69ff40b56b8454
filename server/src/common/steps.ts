/**
 * Long work written as a generator that yields where it may pause, run either at once or in slices that leave the
 * server free to answer other requests in between.
 */
export type Steps<T> = Generator<void, T, void>;

/** Milliseconds of work between two turns of the event loop, for work done in slices. */
export const sliceMs = 8;

/** A turn of the event loop: other requests are answered before the work goes on. */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs the steps to their end at once. */
export function runSteps<T>(steps: Steps<T>): T {
  for (; ;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Runs the steps in slices of about `sliceMs`, each followed by `pause()` and then `afterPause` (which may throw to
 * stop the work, e.g. a spent budget).
 */
export async function runStepsInSlices<T>(steps: Steps<T>, pause: () => Promise<void>, sliceMs: number, afterPause?: () => void): Promise<T> {
  let until = performance.now() + sliceMs;
  for (; ;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() < until) continue;
    await pause();
    afterPause?.();
    until = performance.now() + sliceMs;
  }
}
