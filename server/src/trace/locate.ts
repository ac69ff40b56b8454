/** What sits at an offset of a trace: the event, the call, and the innermost recorded key or value. */
import { indexOfSpanAt } from '../common/spans';
import { contains, eventAt, type Field, type JsonValue, type Shape, type ToolCall, type TraceEvent, type TraceModel } from './model';

export interface Location {
  event?: TraceEvent;
  call?: ToolCall;
  /** Shape of the innermost recorded object holding the offset. */
  shape: Shape;
  object?: JsonValue;
  field?: Field;
  /** Whether the offset is on the field's key or inside its value. */
  on?: 'key' | 'value';
  /** For values that are recorded arrays: the item holding the offset. */
  item?: JsonValue;
  itemIndex?: number;
}

export function locate(model: TraceModel, offset: number): Location | undefined {
  const event = eventAt(model, offset);
  if (!event) {
    const root = model.root;
    if (root?.kind === 'object' && contains(root, offset)) return descend({ shape: 'root', object: root }, root, offset, undefined);
    return undefined;
  }
  if (event.value.kind !== 'object') return { event, shape: 'event' };
  const location: Location = { event, shape: 'event', object: event.value };
  if (event.kind === 'call') location.call = event.calls[0];
  return descend(location, event.value, offset, event);
}

function descend(location: Location, object: JsonValue, offset: number, event: TraceEvent | undefined): Location {
  for (; ;) {
    const f = fieldAt(object.fields, offset);
    if (!f) return location;
    location.field = f;
    if (offset <= f.keyEnd && offset >= f.keyStart) {
      location.on = 'key';
      return location;
    }
    location.on = 'value';
    const v = f.value;
    if (!v) return location;
    let inner: JsonValue | undefined = v.fields && v.shape ? v : undefined;
    if (!inner && v.items) {
      const index = indexOfSpanAt(v.items, offset);
      if (index < 0) return location;
      const item = v.items[index];
      location.item = item;
      location.itemIndex = index;
      if (item.fields && item.shape) inner = item;
    }
    if (!inner) return location;
    const entered = inner;
    if (entered.shape === 'call' && event) location.call = event.calls.find((c) => c.value === entered);
    object = entered;
    location.shape = entered.shape!;
    location.object = entered;
    location.field = undefined;
    location.on = undefined;
    location.item = undefined;
    location.itemIndex = undefined;
  }
}

function fieldAt(fields: Field[] | undefined, offset: number): Field | undefined {
  if (!fields) return undefined;
  for (const f of fields) {
    const end = f.value ? f.value.end : f.keyEnd;
    if (offset >= f.keyStart && offset <= end) return f;
  }
  return undefined;
}
