import type { JsonValue } from '../trace/model';
import {
  lazyContainer, sourceString, type Findable, type JsonArray, type JsonNode, type JsonObject, type JsonProperty,
} from '../json/tree';

/**
 * A dataset line is read once, by the single-trace parser. Its tree (recorded down to events, calls and content)
 * is shown to this language's features as JsonNodes, built on first visit; the parts the trace parser did not
 * record (metadata, annotations, arguments objects) are read again only when a feature walks into them.
 * Only for lines without syntax errors: a broken line keeps the JSON Lines parser's partial tree and messages.
 * This whole view is used while the line is parsed; the line then keeps a lighter one (lineNodeOfTraceValue).
 */
export function nodeOfTraceValue(text: string, value: JsonValue): JsonNode {
  switch (value.kind) {
    case 'object':
      return value.fields ? new TraceObject(text, value) : lazyContainer(text, value.start, value.end, true);
    case 'array':
      return value.items ? new TraceArray(text, value) : lazyContainer(text, value.start, value.end, false);
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
 * The tree a dataset line keeps: built like the JSON Lines parser builds a line (the value and its children;
 * containers further down are read again from the text when first visited), so it holds little of the trace model.
 */
export function lineNodeOfTraceValue(text: string, value: JsonValue, depth = 0): JsonNode {
  if (value.kind === 'object' || value.kind === 'array') {
    const isObject = value.kind === 'object';
    if (depth >= lazyDepth || !(isObject ? value.fields : value.items)) return lazyContainer(text, value.start, value.end, isObject);
    if (!isObject) {
      const items = value.items!;
      if (depth + 1 >= lazyDepth && items.every(isContainer)) return new LazyItems(text, value.start, value.end, items);
      return { type: 'array', start: value.start, end: value.end, items: items.map((item) => lineNodeOfTraceValue(text, item, depth + 1)) };
    }
    const properties: JsonProperty[] = value.fields!.map((f) => {
      const child = f.value ? lineNodeOfTraceValue(text, f.value, depth + 1) : undefined;
      return { key: f.name, keyStart: f.keyStart, keyEnd: f.keyEnd, value: child, start: f.keyStart, end: child ? child.end : f.keyEnd };
    });
    return { type: 'object', start: value.start, end: value.end, properties };
  }
  return nodeOfTraceValue(text, value);
}

/** As the JSON Lines parser: the events of a trace are built when visited. */
const lazyDepth = 2;

const isContainer = (value: JsonValue) => value.kind === 'object' || value.kind === 'array';

/**
 * A list whose items (the events of a trace) are all containers read again only when visited: it keeps their spans
 * alone until its items are first asked for, since a large dataset would otherwise hold a node per event.
 */
class LazyItems implements JsonArray {
  readonly type = 'array' as const;
  /** Start and end of each item, in pairs. */
  private spans: number[] | undefined;
  private built: JsonNode[] | undefined;

  constructor(private readonly text: string, readonly start: number, readonly end: number, items: JsonValue[]) {
    const spans = new Array<number>(items.length * 2);
    for (let i = 0; i < items.length; i++) {
      spans[2 * i] = items[i].start;
      spans[2 * i + 1] = items[i].end;
    }
    this.spans = spans;
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

class TraceObject implements JsonObject, Findable {
  readonly type = 'object' as const;
  readonly start: number;
  readonly end: number;
  /** Properties built so far, by position (an address walk builds only the one it follows). */
  private readonly built: (JsonProperty | undefined)[] = [];
  private complete = false;

  constructor(private readonly text: string, private readonly value: JsonValue) {
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
      const value = f.value ? nodeOfTraceValue(this.text, f.value) : undefined;
      found = { key: f.name, keyStart: f.keyStart, keyEnd: f.keyEnd, value, start: f.keyStart, end: value ? value.end : f.keyEnd };
      this.built[i] = found;
    }
    return found;
  }
}

export class TraceArray implements JsonArray {
  readonly type = 'array' as const;
  readonly start: number;
  readonly end: number;
  private readonly built: (JsonNode | undefined)[] = [];
  private complete = false;

  constructor(private readonly text: string, private readonly value: JsonValue) {
    this.start = value.start;
    this.end = value.end;
  }

  get length(): number {
    return this.value.items!.length;
  }

  /** One item, without building the others (an address names one event of a long trace). */
  item(index: number): JsonNode | undefined {
    const items = this.value.items!;
    if (index >= items.length) return undefined;
    return (this.built[index] ??= nodeOfTraceValue(this.text, items[index]));
  }

  get items(): JsonNode[] {
    if (!this.complete) {
      for (let i = 0; i < this.value.items!.length; i++) this.item(i);
      this.complete = true;
    }
    return this.built as JsonNode[];
  }
}
