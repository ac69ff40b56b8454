/**
 * Where completion was asked in a JSON value: the path to the cursor (jsonc-parser reads the text as it is, broken
 * or not), what each container on the way is for the format, their nodes as our reader read them, and the string
 * the completion replaces.
 */
import { getLocation, type Location } from 'jsonc-parser';
import type { Span } from '../common/types';
import type { JsonNode } from './nodes';
import { childAt } from './queries';

export interface CompletionPlace<Role> {
  location: Location;
  /** What the container holding the cursor's key or value is. */
  container: Role;
  /** That container's node, when the reader has it. */
  node?: JsonNode;
  /** The roles and nodes of the containers from the value's root down to it. */
  roles: Role[];
  nodes: (JsonNode | undefined)[];
  /** The string literal the cursor is in (replaced whole), else the cursor. */
  replace: Span;
}

/** The value is text[start, end) (`root` its node); `rootRole` may look at the path (a value not recognised yet). */
export function completionPlace<Role>(
  text: string, start: number, end: number, offset: number, root: JsonNode | undefined,
  rootRole: (path: Location['path']) => Role, childRole: (parent: Role, segment: string | number) => Role,
): CompletionPlace<Role> {
  const location = getLocation(text.slice(start, end), offset - start);
  const path = location.path;
  const roles: Role[] = [rootRole(path)];
  const nodes: (JsonNode | undefined)[] = [root];
  // The last segment is the key being written, or the key whose value is: the container holds it.
  for (let i = 0; i < path.length - 1; i++) {
    roles.push(childRole(roles[i], path[i]));
    nodes.push(childAt(nodes[i], path[i]));
  }
  const previous = location.previousNode;
  const replace: Span = previous && previous.type === 'string' && offset - start <= previous.offset + previous.length
    ? { start: start + previous.offset, end: start + previous.offset + previous.length }
    : { start: offset, end: offset };
  return { location, container: roles[roles.length - 1], node: nodes[nodes.length - 1], roles, nodes, replace };
}
