/**
 * Plain JSON values as the diff compares them: one canonical text per value (keys sorted, so that key order and
 * re-serialisation are no change), and the keys a user asked to leave out of the comparison.
 */

/** Nesting below this depth is compared as written (a value this deep is rare, and recursion must stay bounded). */
const maxDepth = 64;

export const IGNORED: unique symbol = Symbol('ignored');

/** Avalanche of a 32-bit value (MurmurHash3's finaliser). */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

type EntryHashing = (key: string, value: unknown, depth: number) => boolean | undefined;

/** Arguments written as a JSON string are compared as what they encode: re-serialising them is no change. */
export function parsedArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const first = value.search(/\S/);
  if (first < 0 || (value.charCodeAt(first) !== 0x7b && value.charCodeAt(first) !== 0x5b)) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/**
 * Hashes JSON values for one comparison. Strings (keys and values) are numbered as they are first seen, by a map
 * whose own hashing is native: a long tool output costs one lookup, not a loop over its characters in script, and
 * two strings share a number only when they are equal.
 */
export class Hasher {
  private readonly strings = new Map<string, number>();
  // The two 32-bit lanes of the hash being computed: set by hashInto, read by its caller (no pair allocated per value).
  private lane1 = 0;
  private lane2 = 0;

  private hashString(text: string, tag: number): void {
    let id = this.strings.get(text);
    if (id === undefined) {
      id = this.strings.size;
      this.strings.set(text, id);
    }
    this.lane1 = mix(Math.imul(id, 0x9e3779b1) ^ Math.imul(tag, 0x85ebca6b));
    this.lane2 = mix(Math.imul(id ^ 0x5bd1e995, 0xc2b2ae35) + tag);
  }

  private hashInto(value: unknown, depth: number): void {
    switch (typeof value) {
      case 'string': return this.hashString(value, 1);
      case 'number': return this.hashString(String(value), 2);
      case 'boolean': return this.hashString(value ? 'true' : 'false', 3);
      case 'undefined': return this.hashString('', 4);
      default: break;
    }
    if (value === null) return this.hashString('null', 5);
    if (depth >= maxDepth) return this.hashString(deepJson(value), 6);
    if (Array.isArray(value)) {
      let h1 = 0x2545f491;
      let h2 = 0x68e31da4;
      for (const item of value) {
        this.hashInto(item, depth + 1);
        h1 = mix(Math.imul(h1, 31) + this.lane1);
        h2 = mix(Math.imul(h2, 37) + this.lane2);
      }
      this.lane1 = mix(h1 ^ value.length);
      this.lane2 = mix(h2 + value.length);
      return;
    }
    this.hashEntries(value as Record<string, unknown>, depth, undefined);
  }

  /**
   * Hashes an object's entries into the lanes. Entries are added up: the sum does not depend on the order of the
   * keys. `entry` may hash an entry itself (true), leave it out (false), or leave it to the default (undefined).
   */
  private hashEntries(record: Record<string, unknown>, depth: number, entry: EntryHashing | undefined): void {
    let sum1 = 0;
    let sum2 = 0;
    let size = 0;
    for (const key in record) {
      if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
      const handled = entry?.(key, record[key], depth + 1);
      if (handled === false) continue;
      if (handled !== true) this.hashInto(record[key], depth + 1);
      const v1 = this.lane1;
      const v2 = this.lane2;
      this.hashString(key, 7);
      sum1 = (sum1 + mix(this.lane1 ^ Math.imul(v1, 0x9e3779b1))) | 0;
      sum2 = (sum2 + mix(this.lane2 + Math.imul(v2, 0x7feb352d))) | 0;
      size++;
    }
    this.lane1 = mix(sum1 ^ 0x1b873593 ^ size);
    this.lane2 = mix(sum2 + 0xcc9e2d51 + size);
  }

  private result(): Fingerprint {
    return { hash: (this.lane1 >>> 0) * 0x200000 + (this.lane2 >>> 11), check: this.lane2 & 0x7ff };
  }

  /** The fingerprint of an object without the entries `skip` names: what a copy without them would have. */
  fingerprintWithout(record: Record<string, unknown>, skip: (key: string) => boolean): Fingerprint {
    this.hashEntries(record, 0, (key) => (skip(key) ? false : undefined));
    return this.result();
  }

  /**
   * The fingerprint of a tool call as compared: its id left out (unless `withId`), its function's arguments as what
   * a JSON string of them encodes (see parsedArguments); what the copy readCall makes would have, without the copy.
   */
  fingerprintCall(call: Record<string, unknown>, withId: boolean): Fingerprint {
    const inFunction: EntryHashing = (key, value, depth) => {
      if (key !== 'arguments') return undefined;
      this.hashInto(parsedArguments(value), depth);
      return true;
    };
    this.hashEntries(call, 0, (key, value, depth) => {
      if (key === 'id' && !withId) return false;
      if (key !== 'function' || typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
      this.hashEntries(value as Record<string, unknown>, depth, inFunction);
      return true;
    });
    return this.result();
  }

  /** The fingerprint of a value (see Fingerprint). */
  fingerprint(value: unknown): Fingerprint {
    this.hashInto(value, 0);
    return this.result();
  }
}

/**
 * A 64-bit hash of a JSON value, the same for equal values whatever the order of their objects' keys, as a number
 * of its first 53 bits (`hash`) and the 11 bits left (`check`). Different values share all 64 bits with a chance of
 * about one in a billion among 200,000 steps (strings never collide: see Hasher); `hash` alone is what keys are made
 * of, `check` confirms an equality.
 */
export interface Fingerprint {
  hash: number;
  check: number;
}

/** Fingerprints combined into one, in order. */
export function combined(parts: readonly Fingerprint[]): Fingerprint {
  let h1 = 0x27d4eb2f;
  let h2 = 0x165667b1;
  for (const { hash, check } of parts) {
    h1 = mix(Math.imul(h1, 31) + ((hash / 0x200000) | 0));
    h2 = mix(Math.imul(h2, 37) + ((hash % 0x200000) | 0) + Math.imul(check, 0x9e3779b1));
  }
  return { hash: (h1 >>> 0) * 0x200000 + (h2 >>> 11), check: h2 & 0x7ff };
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

/**
 * JSON text of a value however deeply it nests (`sortKeys`: every object's keys sorted). JSON.stringify recurses
 * and overflows the stack on a value nested some ten thousand levels deep, which a trace can hold (JSON.parse reads it).
 */
export function deepJson(value: unknown, sortKeys = false): string {
  const out: string[] = [];
  const open: { entries: [string | undefined, unknown][]; next: number; close: string }[] = [];
  const write = (item: unknown): void => {
    if (typeof item !== 'object' || item === null) {
      out.push(JSON.stringify(item) ?? 'null');
    } else if (Array.isArray(item)) {
      out.push('[');
      open.push({ entries: item.map((element) => [undefined, element]), next: 0, close: ']' });
    } else {
      const record = item as Record<string, unknown>;
      const keys = Object.keys(record).filter((key) => record[key] !== undefined && typeof record[key] !== 'function');
      if (sortKeys) keys.sort();
      out.push('{');
      open.push({ entries: keys.map((key) => [key, record[key]]), next: 0, close: '}' });
    }
  };
  write(value);
  while (open.length > 0) {
    const top = open[open.length - 1];
    if (top.next === top.entries.length) {
      out.push(top.close);
      open.pop();
      continue;
    }
    const [key, item] = top.entries[top.next];
    if (top.next++ > 0) out.push(',');
    if (key !== undefined) out.push(JSON.stringify(key), ':');
    write(item);
  }
  return out.join('');
}

/** The value itself when it nests at most `maxDepth` levels, else its JSON text (what can be serialised safely). */
export function shallowValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const pending: { item: unknown; depth: number }[] = [{ item: value, depth: 0 }];
  while (pending.length > 0) {
    const { item, depth } = pending.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= maxDepth) return deepJson(value);
    for (const child of Object.values(item)) if (typeof child === 'object' && child !== null) pending.push({ item: child, depth: depth + 1 });
  }
  return value;
}

/** JSON text of a value with every object's keys sorted: equal values give equal texts. */
export function canonicalJson(value: unknown, depth = 0): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (depth >= maxDepth) return deepJson(value, true);
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
