/**
 * Long work written as a generator that yields where it may pause, run either at once or in slices that leave the
 * server free to answer other requests in between.
 */
export type Steps<T> = Generator<void, T, void>;

/** Milliseconds of work between two turns of the event loop, for work done in slices. */
export const sliceMs = 8;

/**
 * Documents (and traces in them) at least this many characters long are read and checked in slices where their
 * language can: other requests are answered in between. Smaller ones are read at once, which costs less than a slice.
 */
export const sliceFromLength = 1_000_000;

/**
 * Turns of the event loop a pause lasts. The JSON-RPC library answers a request in three turns (it decodes the
 * message, dispatches it, then writes the answer, each from its own setImmediate): with one turn per pause, each of
 * those waited behind a slice of our work, and a hover on a small file took 35-55 ms while a 50 MB trace was read.
 * A turn with nothing to do costs microseconds.
 */
const turnsPerPause = 3;

/** A pause of a few turns of the event loop: requests that came in meanwhile are answered before the work goes on. */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => {
  let left = turnsPerPause;
  const turn = () => (--left > 0 ? afterEvents(turn) : resolve());
  afterEvents(turn);
});

/**
 * Runs `callback` in a later turn of the event loop, after the messages that came in meanwhile: Node's setImmediate,
 * or in a web worker (which has none) a message to itself, which a browser does not delay as it does a nested
 * setTimeout(0) (at least 4 ms after a few of them).
 */
export const afterEvents: (callback: () => void) => void = typeof setImmediate === 'function'
  ? (callback) => void setImmediate(callback)
  : messageLoop();

function messageLoop(): (callback: () => void) => void {
  const channel = new MessageChannel();
  const waiting: (() => void)[] = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return (callback) => {
    waiting.push(callback);
    channel.port2.postMessage(undefined);
  };
}

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
