import { fromJson } from './input';
import type { Value } from './values';

export * from './values';

/** A policy parameter given as plain JSON (parameters are not trace data: their strings have no trace identity). */
export function fromParameter(v: unknown): Value {
  const value = fromJson(v);
  return plainStrings(value);
}

function plainStrings(v: Value): Value {
  if (v !== null && typeof v === 'object' && 's' in (v as object) && (v as { constructor: { name: string } }).constructor.name === 'TStr') return (v as { s: string }).s;
  if (Array.isArray(v)) return v.map(plainStrings);
  if (v !== null && typeof v === 'object' && 'map' in (v as object)) {
    const m = (v as { map: Map<string, Value> }).map;
    for (const [k, x] of m) m.set(k, plainStrings(x));
  }
  return v;
}
