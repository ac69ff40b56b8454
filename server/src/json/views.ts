import { sourceString, type Findable, type JsonArray, type JsonNode, type JsonObject, type JsonProperty } from './nodes';
import { LAZY_DEPTH, lazyContainer } from './validReader';
import type { JsonValue as ReadValue } from './tree';

/**
 * The nodes features visit, over a tree the tolerant reader recorded, each built on first visit. A container it did
 * not record (below a dataset line's events, calls and content) is read again from the text when a feature walks
 * into it, which only happens on lines without syntax errors: a broken line is read with every container recorded.
 * A value that is no JSON at all (a stray word in a broken line) is left out. This whole view is used while a
 * dataset line is parsed; the line then keeps a lighter one (lineNodeOfReadValue).
 */
export function nodeOfReadValue(text: string, value: ReadValue): JsonNode {
  switch (value.kind) {
    case 'object':
      return value.fields ? new ReadObject(text, value) : lazyContainer(text, value.start, value.end, true);
    case 'array':
      return value.items ? new ReadArray(text, value) : lazyContainer(text, value.start, value.end, false);
    case 'string':
      return value.str !== undefined
        ? { type: 'string', start: value.start, end: value.end, value: value.str }
        : sourceString(text, value.start, value.end, value.escaped !== false);
    case 'number':
      return { type: 'number', start: value.start, end: value.end, raw: text.slice(value.start, value.end) };
    case 'boolean':
      return { type: 'boolean', start: value.start, end: value.end, value: text.charCodeAt(value.start) === 0x74 };
    default:
      return { type: 'null', start: value.start, end: value.end, value: null };
  }
}

/**
 * The tree a valid dataset line keeps: built like the valid-JSON reader builds a line (the value and its children;
 * containers further down are read again from the text when first visited), so it holds little of the trace model.
 */
export function lineNodeOfReadValue(text: string, value: ReadValue, depth = 0): JsonNode {
  if (value.kind === 'object' || value.kind === 'array') {
    const isObject = value.kind === 'object';
    if (depth >= LAZY_DEPTH || !(isObject ? value.fields : value.items)) return lazyContainer(text, value.start, value.end, isObject);
    if (!isObject) {
      const items = value.items!;
      if (depth + 1 >= LAZY_DEPTH && items.every(isContainer)) return new LazyItems(text, value.start, value.end, spansOf(items));
      return { type: 'array', start: value.start, end: value.end, items: items.map((item) => lineNodeOfReadValue(text, item, depth + 1)) };
    }
    const properties: JsonProperty[] = value.fields!.map((f) => {
      const child = f.value ? lineNodeOfReadValue(text, f.value, depth + 1) : undefined;
      return { key: f.name, keyStart: f.keyStart, keyEnd: f.keyEnd, value: child, start: f.keyStart, end: child ? child.end : f.keyEnd };
    });
    return { type: 'object', start: value.start, end: value.end, properties };
  }
  return nodeOfReadValue(text, value);
}

const isContainer = (value: ReadValue) => value.kind === 'object' || value.kind === 'array';

/** Start and end of each value, in pairs. */
function spansOf(values: ReadValue[]): number[] {
  const spans = new Array<number>(values.length * 2);
  for (let i = 0; i < values.length; i++) {
    spans[2 * i] = values[i].start;
    spans[2 * i + 1] = values[i].end;
  }
  return spans;
}

/**
 * A list whose items (the events of a trace) are all containers read again only when visited: it keeps their spans
 * alone until its items are first asked for, since a large dataset would otherwise hold a node per event.
 */
class LazyItems implements JsonArray {
  readonly type = 'array' as const;
  /** Start and end of each item, in pairs. */
  private spans: number[] | undefined;
  private built: JsonNode[] | undefined;

  /** `spans`: start and end of each item, in pairs. */
  constructor(private readonly text: string, readonly start: number, readonly end: number, spans: number[]) {
    this.spans = spans;
  }

  /** The same list at start + delta of text (an edit before it moved it); its items are built again when visited. */
  moved(text: string, delta: number): JsonArray {
    const spans = this.spans ?? this.built!.flatMap((item) => [item.start, item.end]);
    return new LazyItems(text, this.start + delta, this.end + delta, spans.map((offset) => offset + delta));
  }

  get items(): JsonNode[] {
    if (!this.built) {
      const spans = this.spans!;
      const built: JsonNode[] = [];
      for (let i = 0; i < spans.length; i += 2) built.push(lazyContainer(this.text, spans[i], spans[i + 1], this.text.charCodeAt(spans[i]) === 0x7b));
      this.built = built;
      this.spans = undefined;
    }
    return this.built;
  }
}

class ReadObject implements JsonObject, Findable {
  readonly type = 'object' as const;
  readonly start: number;
  readonly end: number;
  /** Properties built so far, by position (an address walk builds only the one it follows). */
  private readonly built: (JsonProperty | undefined)[] = [];
  private complete = false;

  constructor(private readonly text: string, private readonly value: ReadValue) {
    this.start = value.start;
    this.end = value.end;
  }

  find(key: string): JsonProperty | undefined {
    const fields = this.value.fields!;
    for (let i = 0; i < fields.length; i++) if (fields[i].name === key) return this.property(i);
    return undefined;
  }

  get properties(): JsonProperty[] {
    if (!this.complete) {
      for (let i = 0; i < this.value.fields!.length; i++) this.property(i);
      this.complete = true;
    }
    return this.built as JsonProperty[];
  }

  private property(i: number): JsonProperty {
    let found = this.built[i];
    if (!found) {
      const f = this.value.fields![i];
      const value = f.value && f.value.kind !== 'invalid' ? nodeOfReadValue(this.text, f.value) : undefined;
      found = { key: f.name, keyStart: f.keyStart, keyEnd: f.keyEnd, value, start: f.keyStart, end: value ? value.end : f.keyEnd };
      this.built[i] = found;
    }
    return found;
  }
}

export class ReadArray implements JsonArray {
  readonly type = 'array' as const;
  readonly start: number;
  readonly end: number;
  private readonly values: ReadValue[];
  private readonly built: (JsonNode | undefined)[] = [];
  private complete = false;

  constructor(private readonly text: string, value: ReadValue) {
    this.start = value.start;
    this.end = value.end;
    const items = value.items!;
    this.values = items.some(isNoJson) ? items.filter((item) => !isNoJson(item)) : items;
  }

  get length(): number {
    return this.values.length;
  }

  /** One item, without building the others (an address names one event of a long trace). */
  item(index: number): JsonNode | undefined {
    const values = this.values;
    if (index >= values.length) return undefined;
    return (this.built[index] ??= nodeOfReadValue(this.text, values[index]));
  }

  get items(): JsonNode[] {
    if (!this.complete) {
      for (let i = 0; i < this.values.length; i++) this.item(i);
      this.complete = true;
    }
    return this.built as JsonNode[];
  }
}

const isNoJson = (value: ReadValue) => value.kind === 'invalid';
