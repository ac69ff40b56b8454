/**
 * Plain JSON values as the diff compares them: one canonical text per value (keys sorted, so that key order and
 * re-serialisation are no change), and the keys a user asked to leave out of the comparison.
 */

/** Nesting below this depth is compared as written (a value this deep is rare, and recursion must stay bounded). */
const maxDepth = 64;

export const IGNORED: unique symbol = Symbol('ignored');

// The two 32-bit lanes of the hash being computed: set by hashInto, read by its caller (no pair allocated per value).
let lane1 = 0;
let lane2 = 0;

/** Avalanche of a 32-bit value (MurmurHash3's finaliser). */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

function hashString(text: string, tag: number): void {
  let h1 = 0x811c9dc5 ^ tag;
  let h2 = 0x3c6ef372 ^ tag;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  lane1 = mix(h1 ^ text.length);
  lane2 = mix(h2 + text.length);
}

function hashInto(value: unknown, depth: number): void {
  switch (typeof value) {
    case 'string': return hashString(value, 1);
    case 'number': return hashString(String(value), 2);
    case 'boolean': return hashString(value ? 'true' : 'false', 3);
    case 'undefined': return hashString('', 4);
    default: break;
  }
  if (value === null) return hashString('null', 5);
  if (depth >= maxDepth) return hashString(JSON.stringify(value) ?? '', 6);
  if (Array.isArray(value)) {
    let h1 = 0x2545f491;
    let h2 = 0x68e31da4;
    for (const item of value) {
      hashInto(item, depth + 1);
      h1 = mix(Math.imul(h1, 31) + lane1);
      h2 = mix(Math.imul(h2, 37) + lane2);
    }
    lane1 = mix(h1 ^ value.length);
    lane2 = mix(h2 + value.length);
    return;
  }
  // An object's entries are added up: the sum does not depend on the order of its keys.
  const record = value as Record<string, unknown>;
  let sum1 = 0;
  let sum2 = 0;
  let size = 0;
  for (const key in record) {
    if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
    hashInto(record[key], depth + 1);
    const v1 = lane1;
    const v2 = lane2;
    hashString(key, 7);
    sum1 = (sum1 + mix(lane1 ^ Math.imul(v1, 0x9e3779b1))) | 0;
    sum2 = (sum2 + mix(lane2 + Math.imul(v2, 0x7feb352d))) | 0;
    size++;
  }
  lane1 = mix(sum1 ^ 0x1b873593 ^ size);
  lane2 = mix(sum2 + 0xcc9e2d51 + size);
}

/**
 * A 53-bit hash of a JSON value, the same for equal values whatever the order of their objects' keys. Two different
 * values may share one (rarely): callers confirm an equality with sameValue where it matters.
 */
export function valueHash(value: unknown): number {
  hashInto(value, 0);
  return (lane1 >>> 0) * 0x200000 + (lane2 >>> 11);
}

/** Hashes combined into one, in order. */
export function combinedHash(...hashes: number[]): number {
  let h1 = 0x27d4eb2f;
  let h2 = 0x165667b1;
  for (const hash of hashes) {
    h1 = mix(Math.imul(h1, 31) + (hash / 0x200000 | 0));
    h2 = mix(Math.imul(h2, 37) + (hash % 0x200000));
  }
  return (h1 >>> 0) * 0x200000 + (h2 >>> 11);
}

/** Deep equality of plain JSON values, the order of keys aside. */
export function sameValue(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (depth >= maxDepth) return canonicalJson(a) === canonicalJson(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(right, key) || !sameValue(left[key], right[key], depth + 1)) return false;
  }
  return true;
}

/** JSON text of a value with every object's keys sorted: equal values give equal texts. */
export function canonicalJson(value: unknown, depth = 0): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (depth >= maxDepth) return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) text += (i > 0 ? ',' : '') + canonicalJson(value[i], depth + 1);
    return text + ']';
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let text = '{';
  for (let i = 0; i < keys.length; i++) {
    text += (i > 0 ? ',' : '') + JSON.stringify(keys[i]) + ':' + canonicalJson(record[keys[i]], depth + 1);
  }
  return text + '}';
}

/**
 * The keys left out of a comparison: a key name (`timestamp`) leaves out every field of that name, a dotted path
 * (`metadata.run_id`, `arguments.*.token`, `*` for any key or index) every field whose path ends with it.
 */
export class IgnoreRule {
  private readonly names = new Set<string>();
  private readonly paths: string[][] = [];

  constructor(patterns: readonly string[] = []) {
    for (const pattern of patterns) {
      const segments = pattern.split('.').filter((segment) => segment !== '');
      if (segments.length === 1) this.names.add(segments[0]);
      else if (segments.length > 1) this.paths.push(segments);
    }
  }

  get empty(): boolean {
    return this.names.size === 0 && this.paths.length === 0;
  }

  /** Whether the field at `path` (from the step) is left out. */
  ignores(path: readonly string[]): boolean {
    if (path.length === 0) return false;
    if (this.names.has(path[path.length - 1])) return true;
    for (const pattern of this.paths) {
      if (pattern.length > path.length) continue;
      const offset = path.length - pattern.length;
      if (pattern.every((segment, i) => segment === '*' || segment === path[offset + i])) return true;
    }
    return false;
  }

  /** The value at `path` with the fields it leaves out removed (the value itself when none is); IGNORED for a field left out. */
  apply(value: unknown, path: readonly string[]): unknown {
    if (this.empty) return value;
    if (this.ignores(path)) return IGNORED;
    return this.strip(value, [...path]);
  }

  private strip(value: unknown, path: string[]): unknown {
    if (typeof value !== 'object' || value === null || path.length >= maxDepth) return value;
    let copy: Record<string, unknown> | unknown[] | undefined;
    const keys = Array.isArray(value) ? value.map((_, i) => String(i)) : Object.keys(value);
    const source = value as Record<string, unknown>;
    keys.forEach((key, i) => {
      path.push(key);
      const inner = this.ignores(path) ? IGNORED : this.strip(source[key], path);
      path.pop();
      if (inner === source[key] && !copy) return;
      if (!copy) {
        // The first field that differs: the copy takes every field before it as it was.
        copy = Array.isArray(value) ? value.slice(0, i) : Object.fromEntries(keys.slice(0, i).map((k) => [k, source[k]]));
      }
      if (inner === IGNORED) return;
      if (Array.isArray(copy)) copy.push(inner);
      else copy[key] = inner;
    });
    return copy ?? value;
  }
}
