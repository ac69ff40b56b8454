import type { JsonNode, JsonProperty } from './nodes';

/** A node that can give itself at another place of another text (the fast reader's lazy nodes, string nodes). */
interface Movable {
  moved(text: string, delta: number): JsonNode;
}

/**
 * The tree of a value whose text moved by `delta` characters into `text` (an edit before it in the document), as
 * reading it there would give it; undefined for a tree of a kind that cannot be moved (the tolerant reader's views
 * of a broken value), which is then read again. Plain nodes are copied, lazy ones rebuilt unvisited: the trees
 * JSON Lines lines keep are a level or two deep, so this costs a few objects per line, not a read of its text.
 */
export function movedNode(node: JsonNode, text: string, delta: number): JsonNode | undefined {
  if (Object.getPrototypeOf(node) !== Object.prototype) {
    return typeof (node as Partial<Movable>).moved === 'function' ? (node as unknown as Movable).moved(text, delta) : undefined;
  }
  switch (node.type) {
    case 'object': {
      const properties: JsonProperty[] = [];
      for (const property of node.properties) {
        const value = property.value && movedNode(property.value, text, delta);
        if (property.value && !value) return undefined;
        properties.push({
          key: detached(property.key), keyStart: property.keyStart + delta, keyEnd: property.keyEnd + delta, value,
          start: property.start + delta, end: property.end + delta,
        });
      }
      return { type: 'object', start: node.start + delta, end: node.end + delta, properties };
    }
    case 'array': {
      const items: JsonNode[] = [];
      for (const item of node.items) {
        const moved = movedNode(item, text, delta);
        if (!moved) return undefined;
        items.push(moved);
      }
      return { type: 'array', start: node.start + delta, end: node.end + delta, items };
    }
    case 'string':
      return { type: 'string', start: node.start + delta, end: node.end + delta, value: detached(node.value) };
    case 'number':
      return { type: 'number', start: node.start + delta, end: node.end + delta, raw: detached(node.raw) };
    default:
      return { type: node.type, start: node.start + delta, end: node.end + delta, value: node.value } as JsonNode;
  }
}

/**
 * A copy of a string read from an older version of the document that does not keep that text alive. The engine
 * keeps a substring of 13 or more characters as a view into the string it was cut from (the whole document):
 * joining builds a new string, and cutting that one views the copy instead.
 */
export function detached(value: string): string {
  return value.length < 13 ? value : (value + ' ').slice(0, -1);
}
