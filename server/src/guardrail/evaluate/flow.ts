import { EventObject } from './traceObjects';
import { PyError, type Value } from './values';

/**
 * `a -> b`: a comes strictly before b in the linearised trace (each message followed by its own tool calls).
 * `a ~> b`: a is b's immediate predecessor. Both need events of the trace, as the analyzer's dataflow graph does.
 */
function position(v: Value): number {
  if (v instanceof EventObject && v.position >= 0) return v.position;
  throw new PyError('KeyError', "'Object with given id not in dataflow graph!'");
}

export function hasFlow(a: Value, b: Value): boolean {
  const pa = position(a);
  const pb = position(b);
  return pa < pb;
}

export function isParent(a: Value, b: Value): boolean {
  const pa = position(a);
  const pb = position(b);
  return pa === pb - 1;
}
