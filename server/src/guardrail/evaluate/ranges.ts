import { Contents, EventObject, FunctionObject, type TraceInput } from './input';
import { PyDict, PyTuple, TStr, codePointOffset, type Value } from './values';

/**
 * Ranges: what an evaluation marked (a whole trace object, or offsets inside a trace string) and where in the trace
 * those objects are, as the official addresses `messages.<i>.<key>…[:start-end]`. Like the analyzer, a range is
 * found by the identity of the object it was marked on, in depth-first order over the parsed trace (fields in the
 * analyzer's order), and every occurrence is reported. CPython shares None, True, False, small ints, the empty
 * string and one-character Latin-1 strings, so a range on one of those is found wherever an equal value occurs.
 */
export interface Mark {
  obj: object;
  /** UTF-16 offsets inside a TStr; converted to code points when located. */
  start?: number;
  end?: number;
}

/** A place in the trace: its depth-first sequence number and how to spell its address. */
interface Place {
  seq: number;
  parent: Place | null;
  key: string | number;
}

function sharedKey(v: unknown): string | null {
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return Number.isInteger(v) && v >= -5 && v <= 256 ? `int:${v}` : null;
  const s = typeof v === 'string' ? v : v instanceof TStr ? v.s : null;
  if (s !== null && (s.length === 0 || (s.length === 1 && s.charCodeAt(0) < 256))) return `str:${s}`;
  return null;
}

function children(v: Value): [string | number, Value][] {
  if (Array.isArray(v)) return v.map((x, i) => [i, x]);
  if (v instanceof PyDict) return [...v.map];
  if (v instanceof PyTuple) return v.items.map((x, i) => [i, x]);
  if (v instanceof Contents) return v.chunks.map((x, i) => [i, x]);
  if (v instanceof EventObject || v instanceof FunctionObject) return v.fields();
  return [];
}

function address(place: Place): string {
  const keys: (string | number)[] = [];
  for (let p: Place | null = place; p && p.parent; p = p.parent) keys.push(p.key);
  return keys.length === 0 ? 'messages' : 'messages.' + keys.reverse().join('.');
}

/** Indexes the trace once (on first use) so each error's ranges are found without walking the whole trace. */
export class Locator {
  private byObject: Map<object, Place[]> | null = null;
  private byValue: Map<string, Place[]> | null = null;

  constructor(private readonly input: TraceInput) {}

  private walk(visit: (v: Value, place: Place) => boolean): void {
    let seq = 0;
    const seen = new Set<object>();
    const stack: [Value, Place][] = [[this.input.events, { seq: 0, parent: null, key: '' }]];
    while (stack.length > 0) {
      const [v, place] = stack.pop()!;
      place.seq = seq++;
      const descend = visit(v, place);
      if (!descend || v === null || typeof v !== 'object' || seen.has(v)) continue;
      seen.add(v);
      const kids = children(v);
      for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i][1], { seq: 0, parent: place, key: kids[i][0] }]);
    }
  }

  private objects(): Map<object, Place[]> {
    if (!this.byObject) {
      const map = new Map<object, Place[]>();
      this.walk((v, place) => {
        if (v === null || typeof v !== 'object') return false;
        const list = map.get(v);
        if (list) list.push(place);
        else map.set(v, [place]);
        return true;
      });
      this.byObject = map;
    }
    return this.byObject;
  }

  private values(): Map<string, Place[]> {
    if (!this.byValue) {
      const map = new Map<string, Place[]>();
      this.walk((v, place) => {
        const key = sharedKey(v);
        if (key !== null) {
          const list = map.get(key);
          if (list) list.push(place);
          else map.set(key, [place]);
        }
        return true;
      });
      this.byValue = map;
    }
    return this.byValue;
  }

  locate(marks: Mark[]): string[] {
    if (marks.length === 0) return [];
    const owners = new Set<number>();
    for (const m of marks) {
      const owner = sharedKey(m.obj) !== null ? -1 : m.obj instanceof TStr ? m.obj.owner : m.obj instanceof EventObject ? m.obj.traceIdx : -1;
      if (owner < 0 || owner >= this.input.events.length) return this.locateEverywhere(marks);
      owners.add(owner);
    }
    // Every marked object lies inside a known event: walk only those events.
    const wanted = new Map<object, number[]>();
    marks.forEach((m, order) => {
      const list = wanted.get(m.obj);
      if (list) list.push(order);
      else wanted.set(m.obj, [order]);
    });
    const out: string[] = [];
    for (const owner of [...owners].sort((a, b) => a - b)) {
      const found: { seq: number; order: number; text: string }[] = [];
      let seq = 0;
      const seen = new Set<object>();
      const root: Place = { seq: 0, parent: { seq: 0, parent: null, key: '' }, key: owner };
      const stack: [Value, Place][] = [[this.input.events[owner], root]];
      while (stack.length > 0) {
        const [v, place] = stack.pop()!;
        place.seq = seq++;
        if (v === null || typeof v !== 'object') continue;
        const orders = wanted.get(v);
        if (orders) for (const order of orders) found.push({ seq: place.seq, order, text: rangeText(marks[order], address(place)) });
        if (seen.has(v)) continue;
        seen.add(v);
        const kids = children(v);
        for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i][1], { seq: 0, parent: place, key: kids[i][0] }]);
      }
      found.sort((a, b) => a.seq - b.seq || a.order - b.order);
      for (const f of found) out.push(f.text);
    }
    return out;
  }

  private locateEverywhere(marks: Mark[]): string[] {
    const found: { seq: number; order: number; text: string }[] = [];
    marks.forEach((m, order) => {
      const key = sharedKey(m.obj);
      const places = key !== null ? this.values().get(key) : typeof m.obj === 'object' ? this.objects().get(m.obj) : undefined;
      for (const place of places ?? []) found.push({ seq: place.seq, order, text: rangeText(m, address(place)) });
    });
    found.sort((a, b) => a.seq - b.seq || a.order - b.order);
    return found.map((f) => f.text);
  }
}

function rangeText(m: Mark, base: string): string {
  const s = m.obj instanceof TStr ? m.obj.s : typeof m.obj === 'string' ? (m.obj as string) : null;
  return m.start !== undefined && m.end !== undefined && s !== null ? `${base}:${codePointOffset(s, m.start)}-${codePointOffset(s, m.end)}` : base;
}

const locators = new WeakMap<TraceInput, Locator>();

export function locate(marks: Mark[], input: TraceInput): string[] {
  let locator = locators.get(input);
  if (!locator) locators.set(input, (locator = new Locator(input)));
  return locator.locate(marks);
}
