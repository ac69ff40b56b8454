/** Moves recorded values by a number of characters, in place: what an edit before them does to their offsets. */
import type { JsonValue } from './tree';

/** Adds `delta` to every offset of `value` and of everything recorded inside it. */
export function shiftValue(value: JsonValue, delta: number): void {
  const pending: JsonValue[] = [value];
  for (let next = pending.pop(); next; next = pending.pop()) {
    next.start += delta;
    next.end += delta;
    const items = next.items;
    if (items) for (let i = 0; i < items.length; i++) pending.push(items[i]);
    const fields = next.fields;
    if (fields) {
      for (let i = 0; i < fields.length; i++) {
        const f = fields[i];
        f.keyStart += delta;
        f.keyEnd += delta;
        if (f.value) pending.push(f.value);
      }
    }
  }
}
