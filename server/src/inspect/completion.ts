/**
 * Completion in an Inspect log, inside a sample: the keys of a sample, a message, a tool call or a tool error that
 * are not there yet; roles, content part types and tool error types; a tool message's tool_call_id from the calls
 * before it that are still unanswered. Only the sample under the cursor is read (a log may be 100 MB).
 */
import type { CompletionEntry } from '../common/types';
import { ownEntry } from '../common/lookup';
import { completionPlace } from '../json/completionPlace';
import { keyCompletions, valueCompletions } from '../common/completionEntries';
import { contentTypeDocs, messageFieldDocs, roleDocs, sampleFieldDocs, toolCallFieldDocs, toolErrorFieldDocs, toolErrorTypeDocs } from './docs';
import { sampleAt, traceOf } from './model';
import { childRole, type Role } from './place';
import type { InspectModel } from './types';

const keyTables: Partial<Record<Role, Record<string, string>>> = {
  sample: sampleFieldDocs, message: messageFieldDocs, toolCall: toolCallFieldDocs, toolError: toolErrorFieldDocs,
};

export function completion(model: InspectModel, offset: number): CompletionEntry[] {
  const sample = sampleAt(model, offset);
  if (!sample || offset <= sample.span.start || offset >= sample.span.end) return [];
  const { location, container, node, replace } = completionPlace<Role>(model.text, sample.span.start, sample.span.end, offset, sample.node, () => 'sample', childRole);
  const path = location.path;
  if (location.isAtPropertyKey) {
    const table = keyTables[container];
    if (!table) return [];
    return keyCompletions(Object.keys(table), table, new Set(node?.type === 'object' ? node.properties.map((prop) => prop.key) : []), replace);
  }
  const key = path[path.length - 1];
  if (container === 'message' && key === 'role') return valueCompletions(Object.keys(roleDocs), replace, (role) => ownEntry(roleDocs, role));
  if (container === 'contentPart' && key === 'type') return valueCompletions(Object.keys(contentTypeDocs), replace, (type) => ownEntry(contentTypeDocs, type));
  if (container === 'toolError' && key === 'type') return valueCompletions(Object.keys(toolErrorTypeDocs), replace, (type) => ownEntry(toolErrorTypeDocs, type));
  if (container === 'message' && key === 'tool_call_id') {
    const trace = traceOf(model, sample);
    const open = trace.calls.filter((call) => call.id !== undefined && call.span.end < offset && call.outputs.every((output) => output.span.start <= offset && offset <= output.span.end));
    const labels = new Map(open.map((call) => [call.id!, `${call.name ?? '?'} — ${trace.format.stepName(call.step)}`]));
    return valueCompletions([...labels.keys()], replace, (id) => labels.get(id));
  }
  return [];
}
