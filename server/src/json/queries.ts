/** Questions asked of a node tree: a property, a scalar's value, the path to an offset. */
import { indexOfSpanAt } from '../common/spans';
import type { JsonNode, JsonProperty, Findable } from './nodes';

export function property(node: JsonNode | undefined, key: string): JsonProperty | undefined {
  if (!node || node.type !== 'object') return undefined;
  // Objects built on demand look one property up without building the others.
  const find = (node as Partial<Findable>).find;
  if (find) return find.call(node, key);
  for (const prop of node.properties) if (prop.key === key) return prop;
  return undefined;
}

export function propertyValue(node: JsonNode | undefined, key: string): JsonNode | undefined {
  return property(node, key)?.value;
}

export function stringValue(node: JsonNode | undefined): string | undefined {
  return node && node.type === 'string' ? node.value : undefined;
}

/** A number literal as a JS number, for display and sums only (never for identity). */
export function numberValue(node: JsonNode | undefined): number | undefined {
  return node && node.type === 'number' ? Number(node.raw) : undefined;
}

export { contains } from '../common/spans';

/** The chain of nodes from root to the innermost node containing offset, with the key or index used at each step. */
export interface PathStep {
  node: JsonNode;
  /** Set on the last step when offset is on a property's key (then `node` is the object holding it). */
  onKey?: boolean;
  /** The property whose value is `node` (absent for the root and array items). */
  property?: JsonProperty;
  segment?: string | number;
}

export function pathAt(root: JsonNode, offset: number): PathStep[] {
  const steps: PathStep[] = [{ node: root }];
  let current: JsonNode = root;
  while (true) {
    let next: PathStep | undefined;
    if (current.type === 'object') {
      for (const prop of current.properties) {
        if (offset >= prop.keyStart && offset <= prop.end) {
          if (prop.value && offset >= prop.value.start && offset <= prop.value.end) {
            next = { node: prop.value, property: prop, segment: prop.key };
          } else {
            steps.push({ node: current, property: prop, segment: prop.key, onKey: true });
            return steps;
          }
          break;
        }
      }
    } else if (current.type === 'array') {
      const index = indexOfSpanAt(current.items, offset);
      if (index >= 0) next = { node: current.items[index], segment: index };
    }
    if (!next) return steps;
    steps.push(next);
    current = next.node;
  }
}

/** The child of a node at a key or an index (a path segment), if it has one. */
export function childAt(node: JsonNode | undefined, segment: string | number): JsonNode | undefined {
  if (!node) return undefined;
  if (typeof segment === 'number') return node.type === 'array' ? node.items[segment] : undefined;
  return propertyValue(node, segment);
}
