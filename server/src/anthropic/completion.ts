/**
 * Completion in an Anthropic conversation: the keys of a request, a response, a message, a block (by its type) or a
 * tool definition that are not there yet; block types the message's role may hold; roles; stop reasons; a
 * tool_use_id from the calls still unanswered; a call's name from the request's tools.
 */
import type { CompletionEntry, Span } from '../common/types';
import { ownEntry } from '../common/lookup';
import type { JsonNode } from '../json/nodes';
import { propertyValue, stringValue } from '../json/queries';
import { completionPlace } from '../json/completionPlace';
import { keyCompletions, valueCompletions } from '../common/completionEntries';
import { blockDocs, blockFieldDocs, blockKeys, callBlockTypes } from './blocks';
import { blockTypesByRole, messageFieldDocs, requestFieldDocs, responseFieldDocs, roleDocs, stopReasonDocs, toolFieldDocs } from './docs';
import { conversationAt, valueAt } from './model';
import { childRole, type Role } from './place';
import type { ConversationModel, ValueShape } from './types';

const rootRoles: Record<ValueShape, Role> = { request: 'request', response: 'response', messages: 'messages', message: 'message' };

export function completion(model: ConversationModel, offset: number): CompletionEntry[] {
  const value = valueAt(model, offset) ?? model.values[model.values.length - 1];
  if (!value) return [];
  const { location, container, node, roles, nodes, replace } = completionPlace<Role>(
    model.text, value.start, value.end, offset, value.root,
    (path) => (value.shape ? rootRoles[value.shape] : typeof path[0] === 'number' ? 'messages' : 'request'), childRole,
  );
  const path = location.path;
  const rootRole = roles[0];
  if (location.isAtPropertyKey) return keyEntries(container, node, replace);
  const key = path[path.length - 1];
  if (typeof key !== 'string') return [];
  if (container === 'block' && key === 'type') {
    const message = nodes[nodes.length - 3];
    const role = stringValue(propertyValue(message, 'role')) ?? (rootRole === 'response' ? 'assistant' : undefined);
    const types = (role !== undefined && ownEntry(blockTypesByRole, role)) || Object.keys(blockDocs);
    return valueCompletions(types, replace, (type) => ownEntry(blockDocs, type));
  }
  if ((container === 'message' || container === 'response') && key === 'role') return valueCompletions(['user', 'assistant'], replace, (role) => ownEntry(roleDocs, role));
  if (container === 'response' && key === 'stop_reason') return valueCompletions(Object.keys(stopReasonDocs), replace, (reason) => ownEntry(stopReasonDocs, reason));
  const conversation = conversationAt(model, offset);
  if (container === 'block' && key === 'tool_use_id' && conversation) {
    const open = (call: (typeof conversation.calls)[number]) => call.outputs.every((output) => output.span.start <= offset && offset <= output.span.end);
    const ids = conversation.calls.filter((call) => call.id !== undefined && call.span.end < offset && open(call)).map((call) => call.id!);
    const labels = new Map(conversation.calls.map((call) => [call.id, `${call.name ?? '?'} — ${call.step.name}`]));
    return valueCompletions([...new Set(ids)], replace, (id) => labels.get(id));
  }
  if (container === 'block' && key === 'name' && conversation && callBlockTypes.has(stringValue(propertyValue(node, 'type')) ?? '')) {
    return valueCompletions([...conversation.tools.keys()], replace, (name) => stringValue(propertyValue(conversation.tools.get(name), 'description')));
  }
  return [];
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
  return keyCompletions(known.keys, known.docs, new Set(node?.type === 'object' ? node.properties.map((prop) => prop.key) : []), replace);
}
