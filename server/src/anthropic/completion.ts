/**
 * Completion in an Anthropic conversation: the keys of a request, a response, a message, a block (by its type) or a
 * tool definition that are not there yet; block types the message's role may hold; roles; stop reasons; a
 * tool_use_id from the calls still unanswered; a call's name from the request's tools.
 */
import { getLocation } from 'jsonc-parser';
import type { CompletionEntry, Span } from '../common/types';
import { ownEntry } from '../common/lookup';
import type { JsonNode } from '../json/nodes';
import { propertyValue, stringValue } from '../json/queries';
import { blockDocs, blockFieldDocs, blockKeys, callBlockTypes } from './blocks';
import { blockTypesByRole, messageFieldDocs, requestFieldDocs, responseFieldDocs, roleDocs, stopReasonDocs, toolFieldDocs } from './docs';
import { conversationAt, valueAt } from './model';
import { childRole, type Role } from './place';
import type { ConversationModel, ValueShape } from './types';

const rootRoles: Record<ValueShape, Role> = { request: 'request', response: 'response', messages: 'messages', message: 'message' };

export function completion(model: ConversationModel, offset: number): CompletionEntry[] {
  const value = valueAt(model, offset) ?? model.values[model.values.length - 1];
  if (!value) return [];
  const source = model.text.slice(value.start, value.end);
  const location = getLocation(source, offset - value.start);
  const path = location.path;
  const rootRole: Role = value.shape ? rootRoles[value.shape] : typeof path[0] === 'number' ? 'messages' : 'request';
  // The roles of the containers on the path, and their nodes as the tolerant reader read them.
  const roles: Role[] = [rootRole];
  const nodes: (JsonNode | undefined)[] = [value.root];
  // The last segment is the key being written, or the key whose value is: the container holds it.
  for (let i = 0; i < path.length - 1; i++) {
    roles.push(childRole(roles[i], path[i]));
    nodes.push(childOf(nodes[i], path[i]));
  }
  const container = roles[roles.length - 1];
  const node = nodes[nodes.length - 1];
  const previous = location.previousNode;
  const replace: Span = previous && previous.type === 'string' && offset - value.start <= previous.offset + previous.length
    ? { start: value.start + previous.offset, end: value.start + previous.offset + previous.length }
    : { start: offset, end: offset };
  if (location.isAtPropertyKey) return keyEntries(container, node, replace);
  const key = path[path.length - 1];
  if (typeof key !== 'string') return [];
  if (container === 'block' && key === 'type') {
    const message = nodes[nodes.length - 3];
    const role = stringValue(propertyValue(message, 'role')) ?? (rootRole === 'response' ? 'assistant' : undefined);
    const types = (role !== undefined && ownEntry(blockTypesByRole, role)) || Object.keys(blockDocs);
    return valueEntries(types, replace, (type) => ownEntry(blockDocs, type));
  }
  if ((container === 'message' || container === 'response') && key === 'role') return valueEntries(['user', 'assistant'], replace, (role) => ownEntry(roleDocs, role));
  if (container === 'response' && key === 'stop_reason') return valueEntries(Object.keys(stopReasonDocs), replace, (reason) => ownEntry(stopReasonDocs, reason));
  const conversation = conversationAt(model, offset);
  if (container === 'block' && key === 'tool_use_id' && conversation) {
    const open = (call: (typeof conversation.calls)[number]) => call.outputs.every((output) => output.span.start <= offset && offset <= output.span.end);
    const ids = conversation.calls.filter((call) => call.id !== undefined && call.span.end < offset && open(call)).map((call) => call.id!);
    const labels = new Map(conversation.calls.map((call) => [call.id, `${call.name ?? '?'} — ${call.step.name}`]));
    return valueEntries([...new Set(ids)], replace, (id) => labels.get(id));
  }
  if (container === 'block' && key === 'name' && conversation && callBlockTypes.has(stringValue(propertyValue(node, 'type')) ?? '')) {
    return valueEntries([...conversation.tools.keys()], replace, (name) => stringValue(propertyValue(conversation.tools.get(name), 'description')));
  }
  return [];
}

function childOf(node: JsonNode | undefined, segment: string | number): JsonNode | undefined {
  if (!node) return undefined;
  if (typeof segment === 'number') return node.type === 'array' ? node.items[segment] : undefined;
  return propertyValue(node, segment);
}

function keysOf(role: Role, node: JsonNode | undefined): { keys: readonly string[]; docs: Record<string, string> } | undefined {
  switch (role) {
    case 'request': return { keys: Object.keys(requestFieldDocs), docs: requestFieldDocs };
    case 'response': return { keys: Object.keys(responseFieldDocs), docs: responseFieldDocs };
    case 'message': return { keys: Object.keys(messageFieldDocs), docs: messageFieldDocs };
    case 'tool': return { keys: Object.keys(toolFieldDocs), docs: toolFieldDocs };
    case 'block': {
      const type = stringValue(propertyValue(node, 'type'));
      return { keys: (type !== undefined && ownEntry(blockKeys, type)) || ['type'], docs: blockFieldDocs };
    }
    default: return undefined;
  }
}

function keyEntries(role: Role, node: JsonNode | undefined, replace: Span): CompletionEntry[] {
  const known = keysOf(role, node);
  if (!known) return [];
  const present = new Set(node?.type === 'object' ? node.properties.map((prop) => prop.key) : []);
  return known.keys.filter((key) => !present.has(key)).map((key, i) => {
    const entry: CompletionEntry = { label: key, kind: 'property', insertText: `"${key}": $1`, snippet: true, filterText: `"${key}"`, replace, sortText: String(i).padStart(3, '0') };
    const doc = ownEntry(known.docs, key);
    if (doc) entry.documentation = doc;
    return entry;
  });
}

function valueEntries(values: readonly string[], replace: Span, doc: (value: string) => string | undefined): CompletionEntry[] {
  return values.map((value, i) => {
    const insertText = JSON.stringify(value);
    const entry: CompletionEntry = { label: value, kind: 'value', insertText, filterText: insertText, replace, sortText: String(i).padStart(3, '0') };
    const documentation = doc(value);
    if (documentation) entry.documentation = documentation;
    return entry;
  });
}
