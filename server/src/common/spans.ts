/** Offsets against spans: one copy of the lookups every language makes. */
import type { Span } from './types';

interface Spanned {
  start: number;
  end: number;
}

/**
 * A span of its own with the place of anything that has one (a node, a token, a model's span), so that a result
 * handed out keeps no link to what it was read from.
 */
export function spanOf(spanned: Spanned): Span {
  return { start: spanned.start, end: spanned.end };
}

/** Whether offset is inside span, either end included (a cursor right after a value is on it). */
export function contains(span: Spanned, offset: number): boolean {
  return offset >= span.start && offset <= span.end;
}

/** Index of the span holding offset (ends included) among spans in order that do not overlap, or -1. */
export function indexOfSpanAt(spans: readonly Spanned[], offset: number): number {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const span = spans[mid];
    if (offset < span.start) hi = mid - 1;
    else if (offset > span.end) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** The item whose span (ends included) holds offset, among items in order whose spans do not overlap. */
export function itemAt<T>(items: readonly T[], offset: number, spanOf: (item: T) => Spanned): T | undefined {
  let lo = 0;
  let hi = items.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const span = spanOf(items[mid]);
    if (offset < span.start) hi = mid - 1;
    else if (offset > span.end) lo = mid + 1;
    else return items[mid];
  }
  return undefined;
}

/** Index of the last item starting at or before offset among items in order of their start, or -1. */
export function lastStartingAtOrBefore(items: readonly { start: number }[], offset: number): number {
  let lo = 0;
  let hi = items.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid].start <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Index of the first of these spans (in order of their ends) that ends at or after offset; their count when none does. */
export function firstEndingAtOrAfter(spans: readonly { end: number }[], offset: number): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid].end < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
