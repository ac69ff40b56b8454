/**
 * Hover in a Responses document: on a `call_id`, the call and its output (the shared hover); on an item's or a
 * part's type and on a field, what the API uses it for; on a call's own `id`, that it is not the link; on the
 * response's `object`, `usage` or times, the response with its tokens and time.
 */
import type { HoverResult, Span } from '../common/types';
import { escapeMarkdown, inlineCode } from '../common/markdown';
import { ownEntry } from '../common/lookup';
import { idHover } from '../calls/hover';
import { formatDuration, formatTokens } from '../../../shared/format';
import { itemSchemas, partSchemas, type FieldSchema } from './items';
import { itemAsEvents } from './itemEvents';
import { bodyFields } from './bodyFields';
import { placeAt } from './locate';
import type { ItemStep, ResponsesModel } from './model';

export function hover(model: ResponsesModel, offset: number): HoverResult | null {
  const onId = idHover(model, offset);
  if (onId) return onId;
  const place = placeAt(model, offset);
  if (!place) return null;
  const last = place.steps[place.steps.length - 1];
  if (last.onKey && last.property) {
    const key = last.property.key;
    const span = { start: last.property.keyStart, end: last.property.keyEnd };
    const doc = place.item ? fieldDoc(place.item, place.inItem.slice(0, -1), key) : place.path.length === 1 ? ownEntry(bodyFields, key) : undefined;
    if (!doc) return null;
    const extra = !place.item && key === 'usage' ? responseSummary(model) : '';
    return { span, markdown: `**${escapeMarkdown(key)}**\n\n${doc.doc}${extra ? `\n\n${extra}` : ''}` };
  }
  const node = last.node;
  if (node.type !== 'string') return null;
  const span: Span = { start: node.start, end: node.end };
  if (!place.item) {
    if (place.path.length === 1 && place.path[0] === 'object') return { span, markdown: `**${escapeMarkdown(node.value)}**\n\n${responseSummary(model)}` };
    return null;
  }
  const inItem = place.inItem;
  const step = place.item;
  if (inItem.length === 1 && inItem[0] === 'type') {
    const doc = ownEntry(itemSchemas, node.value)?.doc;
    if (!doc) return { span, markdown: `**${escapeMarkdown(node.value)}**: not an item type the known versions of the Responses API have.` };
    const seen = itemAsEvents(step.node);
    return { span, markdown: `**${escapeMarkdown(node.value)}** item\n\n${doc}${seen ? `\n\n${seen}` : ''}` };
  }
  if (inItem.length === 3 && inItem[2] === 'type') {
    const doc = ownEntry(partSchemas, node.value)?.doc;
    return doc ? { span, markdown: `**${escapeMarkdown(node.value)}** content part\n\n${doc}` } : null;
  }
  if (inItem.length === 1 && inItem[0] === 'id' && step.calls.length > 0) {
    const call = step.calls[0];
    const link = call.id !== undefined ? `its output names ${inlineCode(call.id)}, the item's \`call_id\`` : 'its output names the item\'s `call_id`';
    return { span, markdown: `**id** of this ${inlineCode(step.facts.type ?? 'call')} item: the API's own id for the item, **not** the link to its output (${link}).` };
  }
  return null;
}

function fieldDoc(step: ItemStep, path: (string | number)[], key: string): FieldSchema | undefined {
  if (path.length === 0) return ownEntry(ownEntry(itemSchemas, step.facts.type ?? '')?.fields ?? {}, key);
  if (path.length === 2 && typeof path[1] === 'number' && step.node.type === 'object') {
    const list = step.node.properties.find((p) => p.key === path[0])?.value;
    const part = list?.type === 'array' ? list.items[path[1]] : undefined;
    const type = part?.type === 'object' ? part.properties.find((p) => p.key === 'type')?.value : undefined;
    return type?.type === 'string' ? ownEntry(ownEntry(partSchemas, type.value)?.fields ?? {}, key) : undefined;
  }
  return undefined;
}

/** The response: its id, model, status, time and tokens, as far as written. */
export function responseSummary(model: ResponsesModel): string {
  const response = model.response;
  if (!response) return '';
  const lines: string[] = [];
  const head = [response.id ? `Response ${inlineCode(response.id)}` : 'Response', response.model ? `of ${inlineCode(response.model)}` : undefined, response.status ? `(${escapeMarkdown(response.status)})` : undefined];
  lines.push(head.filter(Boolean).join(' '));
  if (response.createdAt !== undefined) {
    const started = new Date(response.createdAt * 1000).toISOString().replace('T', ' ').slice(0, 19);
    const took = response.completedAt !== undefined && response.completedAt >= response.createdAt ? `, took ${formatDuration((response.completedAt - response.createdAt) * 1000)}` : '';
    lines.push(`Created ${started} UTC${took}.`);
  }
  const tokens = response.usage ? formatTokens(response.usage, true) : undefined;
  if (tokens) lines.push(`Used ${tokens}.`);
  if (response.continues !== undefined) lines.push(`Continues ${inlineCode(response.continues)}.`);
  if (response.error) lines.push(`Failed: ${escapeMarkdown(response.error)}`);
  return lines.join('  \n');
}
