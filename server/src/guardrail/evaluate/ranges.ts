import { Contents, EventObject, FunctionObject, type TraceInput } from './input';
import { PyDict, PyTuple, TStr, codePointOffset, type Value } from './values';

/**
 * Ranges: what an evaluation marked (a whole trace object, or offsets inside a trace string) and where in the trace
 * those objects are, as the official addresses `messages.<i>.<key>…[:start-end]`. Like the analyzer, a range is
 * found by the identity of the object it was marked on, in a depth-first walk of the parsed trace (fields in the
 * analyzer's order), and every occurrence is reported.
 */
export interface Mark {
  obj: object;
  /** UTF-16 offsets inside a TStr; converted to code points when located. */
  start?: number;
  end?: number;
}

/** CPython shares its empty string and one-character Latin-1 strings, so a range on one is found wherever it occurs. */
function sharedString(s: string): boolean {
  return s.length === 0 || (s.length === 1 && s.charCodeAt(0) < 256);
}

export function locate(marks: Mark[], input: TraceInput): string[] {
  if (marks.length === 0) return [];
  const byObject = new Map<object, Mark[]>();
  const byShared = new Map<string, Mark[]>();
  for (const m of marks) {
    if (m.obj instanceof TStr && sharedString(m.obj.s)) {
      const list = byShared.get(m.obj.s) ?? [];
      list.push(m);
      byShared.set(m.obj.s, list);
    } else {
      const list = byObject.get(m.obj) ?? [];
      list.push(m);
      byObject.set(m.obj, list);
    }
  }
  const out: string[] = [];
  const visited = new Set<object>();
  const visit = (v: Value, path: string): void => {
    if (v === null || typeof v !== 'object') return;
    const found = byObject.get(v) ?? (v instanceof TStr && sharedString(v.s) ? byShared.get(v.s) : undefined);
    if (found) {
      const address = path === '' ? 'messages' : 'messages.' + path;
      for (const m of found) {
        if (m.start !== undefined && m.end !== undefined && v instanceof TStr) {
          out.push(`${address}:${codePointOffset(v.s, m.start)}-${codePointOffset(v.s, m.end)}`);
        } else {
          out.push(address);
        }
      }
    }
    if (visited.has(v)) return;
    visited.add(v);
    const child = (key: string | number): string => (path === '' ? String(key) : `${path}.${key}`);
    if (Array.isArray(v)) v.forEach((x, i) => visit(x, child(i)));
    else if (v instanceof PyDict) for (const [k, x] of v.map) visit(x, child(k));
    else if (v instanceof PyTuple) v.items.forEach((x, i) => visit(x, child(i)));
    else if (v instanceof Contents) v.chunks.forEach((x, i) => visit(x, child(i)));
    else if (v instanceof EventObject) for (const [k, x] of v.fields()) visit(x, child(k));
    else if (v instanceof FunctionObject) for (const [k, x] of v.fields()) visit(x, child(k));
  };
  visit(input.events, '');
  return out;
}
