/**
 * Span lines and the JSON inside their message attributes read as views (json/validViews.ts: one checking pass
 * records a tape, nodes are made only where the span reader visits them), and what the model keeps of a span's
 * messages: nodes that keep only their place in the file. The nodes of JSON inside a string are those embedded.ts
 * maps from a whole reading (same places, values and members, the same depth limit), without building the rest.
 */
import type { JsonArray, JsonNode, JsonObject, JsonProperty, JsonString } from '../json/nodes';
import { decoded, isDecoded, transientStringValue } from '../json/nodes';
import { decodeJsonString } from '../json/strings';
import { DecodedString, ViewArray, ViewObject, viewOfValid } from '../json/validViews';
import { LiteralOffsets, maxEmbeddedDepth } from './embedded';

/** A span line (or any JSON of the file) as a view; undefined when it is not one valid JSON value. */
export function viewOfValidJson(text: string, start: number, end: number): JsonNode | undefined {
  return viewOfValid(text, start, end);
}

/** The value a string literal holds as JSON, as a view; undefined when it does not hold one valid JSON value. */
export function viewOfEmbeddedJson(text: string, literal: JsonString): JsonNode | undefined {
  const json = transientStringValue(literal);
  return viewOfValid(json, 0, json.length, { offsets: LiteralOffsets.ofLiteral(text, literal), decoded: true, maxDepth: maxEmbeddedDepth });
}

/** The JSON of the file's characters text[start, end) inside a string literal (a container, valid), as a view. */
function viewOfRange(text: string, start: number, end: number, depth: number): JsonNode | undefined {
  const json = decodeJsonString(text, start, end, Infinity);
  return viewOfValid(json, 0, json.length, { offsets: new LiteralOffsets(text, start, end), decoded: true, maxDepth: maxEmbeddedDepth, depth });
}

/**
 * A node of a view as a node that keeps only its place in the file: what the model keeps of a span's messages (the
 * texts, arguments and results of its calls). A view's node holds the decoded text of its whole attribute; this one
 * decodes its own characters again when its value or its members are first asked for.
 */
export function detached(text: string, node: JsonNode): JsonNode {
  if (!isDecoded(node)) return node;
  if (node instanceof DecodedString) return new KeptString(text, node.start, node.end);
  if (node instanceof ViewObject) return new KeptObject(text, node.depth, node.start, node.end);
  if (node instanceof ViewArray) return new KeptArray(text, node.depth, node.start, node.end);
  return node;
}

/**
 * A kept node (see `detached`) of a history moved to the same characters `delta` further on in the file (history.ts):
 * the kept classes, or a scalar's plain node.
 */
export function shiftedNode(node: JsonNode, delta: number): JsonNode {
  if (node instanceof KeptString || node instanceof KeptObject || node instanceof KeptArray) return node.moved(delta);
  return { ...node, start: node.start + delta, end: node.end + delta };
}

/** A string inside a string: its characters decoded twice (the file's escapes, then its own). */
class KeptString implements JsonString {
  readonly type = 'string' as const;
  readonly [decoded] = true;

  constructor(private readonly text: string, readonly start: number, readonly end: number) {}

  moved(delta: number): KeptString {
    return new KeptString(this.text, this.start + delta, this.end + delta);
  }

  get value(): string {
    const literal = decodeJsonString(this.text, this.start, this.end, Infinity);
    return decodeJsonString(literal, 1, literal.length - 1, Infinity);
  }
}

/** A container inside a string: read as a view of its own characters when its members are first asked for. */
abstract class KeptContainer<View extends JsonObject | JsonArray> {
  readonly [decoded] = true;
  private read: View | undefined;

  constructor(protected readonly text: string, protected readonly depth: number, readonly start: number, readonly end: number) {}

  protected get view(): View {
    return (this.read ??= viewOfRange(this.text, this.start, this.end, this.depth) as View);
  }
}

class KeptObject extends KeptContainer<JsonObject> implements JsonObject {
  readonly type = 'object' as const;

  moved(delta: number): KeptObject {
    return new KeptObject(this.text, this.depth, this.start + delta, this.end + delta);
  }

  get properties(): JsonProperty[] {
    return this.view.properties;
  }
}

class KeptArray extends KeptContainer<JsonArray> implements JsonArray {
  readonly type = 'array' as const;

  moved(delta: number): KeptArray {
    return new KeptArray(this.text, this.depth, this.start + delta, this.end + delta);
  }

  get items(): JsonNode[] {
    return this.view.items;
  }
}
