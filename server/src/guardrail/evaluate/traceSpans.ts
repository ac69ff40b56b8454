import type { Span } from '../../common/types';
import { parseAddress, resolveAddress } from '../../jsonl/dataset/address';
import { parseJsonValue, parseValidJsonInSteps } from '../../json/readJson';
import type { Steps } from '../../common/steps';
import type { JsonNode, ParsedValue } from '../../json/nodes';
import { isMadeNode, type SourcedEvent } from '../../calls/sourcedEvents';

/**
 * Maps an evaluation's official addresses (`messages.<i>.<key>…[:start-end]`, code points) to source spans in the
 * trace's text, through string escapes and JSON encoded in strings (tool-call arguments), with the JSON Lines
 * service's address resolution. A trace is the JSON value in text[start, end): a list of events, or an object whose
 * `messages` are the trace (a dataset line). A part of an address that is not in the file (a field the analyzer
 * copies, such as `server`) falls back to the nearest enclosing value.
 */
export function traceSpans(text: string, start: number, end: number): (address: string) => Span {
  return spansIn(text, start, parseJsonValue(text, start, end));
}

/** The same for paths from the JSON value in text[start, end) itself (`call.kwargs.order_id`), whatever it holds. */
export function valueSpans(text: string, start: number, end: number): (path: string) => Span {
  return spansIn(text, start, parseJsonValue(text, start, end), (root) => root);
}

/** The same, reading the trace in steps of about `stepMs` (a big trace: see parseValidJsonInSteps). */
export function* traceSpansInSteps(text: string, start: number, end: number, stepMs: number): Steps<(address: string) => Span> {
  return spansIn(text, start, yield* parseValidJsonInSteps(text, start, end, stepMs));
}

/**
 * The same for events converted from another format (calls/anthropicEvents.ts): addresses land in the file they were
 * converted from, `whole` when they name nothing in it. A character range in a value the conversion made (a role, a
 * data URL) marks that value's source as a whole.
 */
export function convertedTraceSpans(text: string, events: readonly SourcedEvent[], whole: Span): (address: string) => Span {
  const messages: JsonNode = { type: 'array', start: whole.start, end: whole.end, items: events.map((event) => event.node) };
  const root: JsonNode = { type: 'object', start: whole.start, end: whole.end, properties: [{ key: 'messages', keyStart: whole.start, keyEnd: whole.start, value: messages, start: whole.start, end: whole.end }] };
  return spansIn(text, whole.start, { root, errors: [] }, (node) => node, (resolved, hasRange) => !(hasRange && isMadeNode(resolved)));
}

function spansIn(
  text: string, start: number, parsed: ParsedValue, rootOf = addressRoot, accept: (node: JsonNode, hasRange: boolean) => boolean = () => true,
): (address: string) => Span {
  const root = parsed.root ? rootOf(parsed.root) : null;
  return (address) => {
    if (!root) return { start, end: start };
    let current = address;
    for (;;) {
      const parsedAddress = parseAddress(current);
      const resolved = resolveAddress(text, root, current, parsedAddress);
      if (resolved.ok && accept(resolved.node, parsedAddress.range !== undefined)) return resolved.target;
      const colon = current.indexOf(':');
      if (colon >= 0) current = current.slice(0, colon);
      else if (current.includes('.')) current = current.slice(0, current.lastIndexOf('.'));
      else return { start: root.start, end: root.end };
    }
  };
}

/** The root the official addresses start from: an object whose `messages` is the trace. */
function addressRoot(node: JsonNode): JsonNode {
  if (node.type === 'array') {
    return { type: 'object', start: node.start, end: node.end, properties: [{ key: 'messages', keyStart: node.start, keyEnd: node.start, value: node, start: node.start, end: node.end }] };
  }
  return node;
}
