import type { TraceInput } from './input';
import { Contents, EventObject, FunctionObject, readLists } from './traceObjects';
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
  /**
   * Every character of [start, end) is a range of its own: one mark stands for a run of single-character ranges
   * (the `unicode` detector marks each character it reports), so a long run costs one object until it is read.
   */
  each?: boolean;
}

/** A place in the trace: its depth-first sequence number and how to spell its address. */
interface Place {
  seq: number;
  parent: Place | null;
  key: string | number;
  /** The address, spelled on first use (many errors share a place). */
  text?: string;
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
  if (place.text !== undefined) return place.text;
  const keys: (string | number)[] = [];
  for (let p: Place | null = place; p && p.parent; p = p.parent) keys.push(p.key);
  return (place.text = keys.length === 0 ? 'messages' : 'messages.' + keys.reverse().join('.'));
}

/** A mark found at a place: the first is the order within an error, then expanded into address strings. */
interface Found {
  order: number;
  mark: Mark;
  place: Place;
}

/** Indexes the trace once (on first use) so each error's ranges are found without walking the whole trace. */
export class Locator {
  private byObject: Map<object, Place[]> | null = null;
  private byValue: Map<string, Place[]> | null = null;
  private readonly byEvent = new Map<number, Map<object, Place[]>>();

  constructor(private readonly input: TraceInput) {}

  /** Depth-first from `root` (the whole trace by default), numbering places in the order visited. */
  private walk(visit: (v: Value, place: Place) => boolean, root: [Value, Place] = [this.input.events, { seq: 0, parent: null, key: '' }]): void {
    let seq = 0;
    const seen = new Set<object>();
    const stack: [Value, Place][] = [root];
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
    return (this.byObject ??= this.objectPlaces());
  }

  /** Every object under `root` (the whole trace by default) with its places. */
  private objectPlaces(root?: [Value, Place]): Map<object, Place[]> {
    const map = new Map<object, Place[]>();
    this.walk((v, place) => {
      if (v === null || typeof v !== 'object') return false;
      const list = map.get(v);
      if (list) list.push(place);
      else map.set(v, [place]);
      return true;
    }, root);
    return map;
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

  /** Every object inside event `owner`, with its places there (depth-first), indexed on first use. */
  private eventIndex(owner: number): Map<object, Place[]> {
    let index = this.byEvent.get(owner);
    if (!index) {
      index = this.objectPlaces([this.input.events[owner], { seq: 0, parent: { seq: 0, parent: null, key: '' }, key: owner }]);
      this.byEvent.set(owner, index);
    }
    return index;
  }

  /** Where each mark is, in the analyzer's order: depth-first over the trace, marks on one place in mark order. */
  locate(marks: Mark[]): Found[] {
    if (marks.length === 0) return [];
    const owners = new Set<number>();
    // A dict or list the rule made is nowhere in the trace (and looking for it would index the whole trace).
    marks = marks.filter((m) => !(m.obj instanceof PyDict ? m.obj.derived : Array.isArray(m.obj) && !readLists.has(m.obj)));
    for (const m of marks) {
      const owner = sharedKey(m.obj) !== null ? -1 : m.obj instanceof TStr ? m.obj.owner : m.obj instanceof EventObject ? m.obj.traceIdx : -1;
      if (owner < 0 || owner >= this.input.events.length) return this.locateEverywhere(marks);
      owners.add(owner);
    }
    // Every marked object lies inside a known event: look only there.
    const out: Found[] = [];
    for (const owner of [...owners].sort((a, b) => a - b)) {
      const index = this.eventIndex(owner);
      const found: Found[] = [];
      marks.forEach((mark, order) => {
        for (const place of index.get(mark.obj) ?? []) found.push({ order, mark, place });
      });
      found.sort((a, b) => a.place.seq - b.place.seq || a.order - b.order);
      for (const f of found) out.push(f);
    }
    return out;
  }

  /**
   * The address of one object of the trace, found by identity (never by an equal value): its first place,
   * depth-first. Undefined for a value the trace does not hold (a literal, a derived string, a dict the rule made).
   */
  addressOf(obj: object): string | undefined {
    if (obj instanceof PyDict ? obj.derived : Array.isArray(obj) && !readLists.has(obj)) return undefined;
    const owner = obj instanceof TStr ? obj.owner : obj instanceof EventObject ? obj.traceIdx : -1;
    const places = owner >= 0 && owner < this.input.events.length ? this.eventIndex(owner).get(obj) : this.objects().get(obj);
    return places && places.length > 0 ? address(places[0]) : undefined;
  }

  private locateEverywhere(marks: Mark[]): Found[] {
    const found: Found[] = [];
    marks.forEach((mark, order) => {
      const key = sharedKey(mark.obj);
      const places = key !== null ? this.values().get(key) : typeof mark.obj === 'object' ? this.objects().get(mark.obj) : undefined;
      for (const place of places ?? []) found.push({ order, mark, place });
    });
    found.sort((a, b) => a.place.seq - b.place.seq || a.order - b.order);
    return found;
  }
}

function markedText(m: Mark): string | null {
  return m.obj instanceof TStr ? m.obj.s : typeof m.obj === 'string' ? (m.obj as string) : null;
}

/** The official address strings of located marks, a run of single characters giving one range per character. */
function expand(found: Found[], firstOfRun: boolean): string[] {
  const out: string[] = [];
  for (const { mark, place } of found) {
    const base = address(place);
    const s = markedText(mark);
    if (mark.start === undefined || mark.end === undefined || s === null) {
      out.push(base);
      continue;
    }
    if (!mark.each) {
      out.push(`${base}:${codePointOffset(s, mark.start)}-${codePointOffset(s, mark.end)}`);
      continue;
    }
    for (let i = mark.start; i < mark.end; ) {
      const next = i + (i + 1 < mark.end && isSurrogatePair(s.charCodeAt(i), s.charCodeAt(i + 1)) ? 2 : 1);
      out.push(`${base}:${codePointOffset(s, i)}-${codePointOffset(s, next)}`);
      if (firstOfRun) break;
      i = next;
    }
  }
  return out;
}

function isSurrogatePair(high: number, low: number): boolean {
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

const locators = new WeakMap<TraceInput, Locator>();

function locatorOf(input: TraceInput): Locator {
  let locator = locators.get(input);
  if (!locator) locators.set(input, (locator = new Locator(input)));
  return locator;
}

/** The official addresses of marks: `messages.<i>.<key>…[:start-end]`, code-point offsets. */
export function locate(marks: Mark[], input: TraceInput): string[] {
  return expand(locatorOf(input).locate(marks), false);
}

/** A variable of a rule and the trace element it was bound to, as an official address. */
export interface VariableBinding {
  variable: string;
  address: string;
}

/**
 * Where each variable of an assignment is in the trace, in assignment order: the address of the trace element it
 * was bound to (`messages.3`, `messages.3.tool_calls.0`, `messages.4.content`). Variables bound to values the trace
 * does not hold are left out.
 */
export function bindingAddresses(assignment: ReadonlyMap<string, Value>, input: TraceInput): VariableBinding[] {
  const out: VariableBinding[] = [];
  for (const [variable, value] of assignment) {
    if (value === null || typeof value !== 'object' || value === (input as object)) continue;
    const address = locatorOf(input).addressOf(value);
    if (address !== undefined) out.push({ variable, address });
  }
  return out;
}

/**
 * The same addresses with each run of single characters given by its first character only: what a place for the
 * error is chosen from without spelling out one range per character of a long text.
 */
export function locateRepresentatives(marks: Mark[], input: TraceInput): string[] {
  return expand(locatorOf(input).locate(marks), true);
}
