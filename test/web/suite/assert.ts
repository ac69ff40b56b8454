// `node:assert/strict` for the web-worker extension host, where Node's module does not exist: the web test bundle
// maps that import here (esbuild.mjs), so the extension-host test files run unchanged in both hosts. Only the
// assertions those files use, with the same strict semantics (Object.is, structural deep equality).

export class AssertionError extends Error {
  override name = 'AssertionError';
  constructor(message: string, readonly actual?: unknown, readonly expected?: unknown) {
    super(message);
  }
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value, (_key, inner) => (inner === undefined ? '<undefined>' : inner), 2) ?? String(value);
  } catch {
    return String(value);
  }
}

function failWith(message: string | Error | undefined, fallback: string, actual?: unknown, expected?: unknown): never {
  if (message instanceof Error) throw message;
  throw new AssertionError(message ?? fallback, actual, expected);
}

export function ok(value: unknown, message?: string | Error): asserts value {
  if (!value) failWith(message, `expected a truthy value, got ${show(value)}`, value, true);
}

export function equal<T>(actual: unknown, expected: T, message?: string | Error): asserts actual is T {
  if (!Object.is(actual, expected)) failWith(message, `expected ${show(expected)}, got ${show(actual)}`, actual, expected);
}

export function notEqual(actual: unknown, expected: unknown, message?: string | Error): void {
  if (Object.is(actual, expected)) failWith(message, `expected a value other than ${show(expected)}`, actual, expected);
}

function deepEqualValues(a: unknown, b: unknown, seen: Map<object, object>): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (seen.get(a) === b) return true;
  seen.set(a, b);
  if (a instanceof Date) return a.getTime() === (b as Date).getTime();
  if (a instanceof RegExp) return String(a) === String(b);
  if (a instanceof Map || a instanceof Set) {
    const left = [...a.entries()];
    const right = [...(b as Map<unknown, unknown> | Set<unknown>).entries()];
    return left.length === right.length && left.every((entry, i) => deepEqualValues(entry, right[i], seen));
  }
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => Object.prototype.hasOwnProperty.call(b, key)
    && deepEqualValues((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], seen));
}

export function deepEqual<T>(actual: unknown, expected: T, message?: string | Error): asserts actual is T {
  if (!deepEqualValues(actual, expected, new Map())) {
    failWith(message, `expected (deep, strict):\n${show(expected)}\ngot:\n${show(actual)}`, actual, expected);
  }
}

export function notDeepEqual(actual: unknown, expected: unknown, message?: string | Error): void {
  if (deepEqualValues(actual, expected, new Map())) failWith(message, `expected a value other than ${show(expected)}`, actual, expected);
}

export function match(actual: string, pattern: RegExp, message?: string | Error): void {
  if (typeof actual !== 'string' || !pattern.test(actual)) failWith(message, `expected ${show(actual)} to match ${pattern}`, actual, pattern);
}

export function fail(message?: string | Error): never {
  failWith(message, 'failed');
}

export { equal as strictEqual, deepEqual as deepStrictEqual, notEqual as notStrictEqual };
