/** What the cursor is on in a conversation: the value, the path to it, and what each object on the way is. */
import { pathAt, type PathStep } from '../json/queries';
import type { JsonNode } from '../json/nodes';
import { propertyValue, stringValue } from '../json/queries';
import { valueAt } from './model';
import type { ConversationModel, DocumentValue, ValueShape } from './types';

/** What an object or list of a conversation is. */
export type Role = 'request' | 'response' | 'message' | 'messages' | 'blocks' | 'block' | 'tools' | 'tool' | 'input' | 'other';

export interface Place {
  value: DocumentValue;
  steps: PathStep[];
  /** What each step's node is (same length as steps). */
  roles: Role[];
  /** The key or index of the innermost node. */
  segment?: string | number;
}

const rootRoles: Record<ValueShape, Role> = { request: 'request', response: 'response', messages: 'messages', message: 'message' };

/** What the child at `segment` of a node of role `parent` is. */
export function childRole(parent: Role, segment: string | number | undefined): Role {
  switch (parent) {
    case 'request':
      return segment === 'messages' ? 'messages' : segment === 'system' ? 'blocks' : segment === 'tools' ? 'tools' : 'other';
    case 'messages':
      return typeof segment === 'number' ? 'message' : 'other';
    case 'response':
    case 'message':
      return segment === 'content' ? 'blocks' : 'other';
    case 'blocks':
      return typeof segment === 'number' ? 'block' : 'other';
    case 'block':
      return segment === 'content' ? 'blocks' : segment === 'input' ? 'input' : 'other';
    case 'tools':
      return typeof segment === 'number' ? 'tool' : 'other';
    default:
      return 'other';
  }
}

export function placeAt(model: ConversationModel, offset: number): Place | undefined {
  const value = valueAt(model, offset);
  if (!value?.root || !value.shape || offset < value.root.start || offset > value.root.end) return undefined;
  const steps = pathAt(value.root, offset);
  const roles: Role[] = [rootRoles[value.shape]];
  for (let i = 1; i < steps.length; i++) roles.push(steps[i].onKey ? roles[i - 1] : childRole(roles[i - 1], steps[i].segment));
  const last = steps[steps.length - 1];
  return { value, steps, roles, segment: last.segment };
}

/** The `type` of a block node. */
export function blockType(node: JsonNode | undefined): string | undefined {
  return stringValue(propertyValue(node, 'type'));
}
