/**
 * Hover in a Codex rollout: on a `call_id`, the call and its output (the shared hover); on a record's, item's or
 * event's type, what Codex writes it for, when, and what it cost (time and tokens); on a UI event, the record it
 * repeats or the call it reports; on a key, the field's doc; on a tool's name, how often the rollout calls it.
 */
import type { HoverResult, Span } from '../../common/types';
import { escapeMarkdown, inlineCode } from '../../common/markdown';
import { ownEntry } from '../../common/lookup';
import { describeCall, idHover } from '../../calls/hover';
import { stepTimingLines } from '../../calls/timing';
import { formatDuration, formatTokens } from '../../../../shared/format';
import { itemSchemas, partSchemas, type FieldSchema } from '../../responses/items';
import { itemAsEvents } from '../../responses/itemEvents';
import type { Place } from '../locate';
import type { LinesModel } from '../lines';
import { eventTypes, recordFields, recordTypes } from './docs';
import { codexFormat, describeStep } from './format';
import { rolloutOf } from './rollout';
import type { RolloutModel, RolloutStep } from './types';

export function rolloutHover(model: LinesModel, place: Place, offset: number): HoverResult | null {
  const rollout = rolloutOf(model);
  const onId = idHover(rollout, offset);
  if (onId) return onId;
  const step = stepOfLine(rollout, place.line.number);
  const last = place.steps[place.steps.length - 1];
  const path = place.path;
  if (last.onKey && last.property) {
    const key = last.property.key;
    const doc = fieldDoc(step, path.slice(0, -1), key);
    if (!doc) return null;
    return { span: { start: last.property.keyStart, end: last.property.keyEnd }, markdown: `**${escapeMarkdown(key)}**\n\n${doc.doc}` };
  }
  const node = last.node;
  if (!step || node.type !== 'string') return null;
  const span: Span = { start: node.start, end: node.end };
  const value = node.value;
  if (path.length === 1 && path[0] === 'type') return { span, markdown: withTiming(rollout, step, typeDoc(value, ownEntry(recordTypes, value)?.doc, 'record')) };
  if (path.length === 1 && path[0] === 'timestamp') return { span, markdown: withTiming(rollout, step, '**timestamp**') };
  if (path.length === 2 && path[0] === 'payload' && path[1] === 'type') {
    const seen = step.facts.type === 'response_item' ? itemAsEvents(place.steps[place.steps.length - 2].node) : undefined;
    return { span, markdown: withTiming(rollout, step, `${payloadTypeDoc(rollout, step, value)}${seen ? `\n\n${seen}` : ''}`) };
  }
  if (path.length === 4 && path[0] === 'payload' && path[3] === 'type') {
    const doc = ownEntry(partSchemas, value)?.doc;
    return doc ? { span, markdown: `**${escapeMarkdown(value)}** content part\n\n${doc}` } : null;
  }
  if (path.length === 2 && path[1] === 'call_id' && step.facts.type === 'event_msg') return { span, markdown: reportHover(rollout, step) };
  if (path.length === 2 && path[1] === 'name' && step.calls[0]?.nameSpan?.start === node.start) return { span, markdown: toolHover(rollout, value) };
  return null;
}

/** The step of a record line, by binary search over the steps (in line order). */
export function stepOfLine(rollout: RolloutModel, number: number): RolloutStep | undefined {
  let lo = 0;
  let hi = rollout.steps.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = rollout.steps[mid].index;
    if (at === number) return rollout.steps[mid];
    if (at < number) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

function typeDoc(value: string, doc: string | undefined, what: string): string {
  return doc ? `**${escapeMarkdown(value)}** ${what}\n\n${doc}` : `**${escapeMarkdown(value)}**: not a ${what} type the known versions of Codex write.`;
}

function withTiming(rollout: RolloutModel, step: RolloutStep, markdown: string): string {
  const lines = stepTimingLines(rollout, step);
  if (step.countedOn) {
    const tokens = step.countedOn.usage ? formatTokens(step.countedOn.usage, true) : undefined;
    lines.push(`Counted on ${describeStep(step.countedOn)}, the model's last record before this count${tokens ? `: ${tokens}` : ''}.`);
  } else if (step.role === 'usage' && !step.usage) {
    lines.push('The running total did not grow since the count before: a repeat (Codex writes one when rate limits change), counted once.');
  }
  if (step.countedFrom) lines.push(`Counted by the token_count on ${codexFormat.stepName(step.countedFrom)}.`);
  return lines.length > 0 ? `${markdown}\n\n${lines.join('  \n')}` : markdown;
}

function payloadTypeDoc(rollout: RolloutModel, step: RolloutStep, value: string): string {
  if (step.facts.type === 'response_item') {
    const doc = typeDoc(value, ownEntry(itemSchemas, value)?.doc, 'item');
    if (step.role === 'context') return `${doc}\n\n_Codex wrote this user message itself (the environment or instructions it gives the model): it is context, not a prompt you typed._`;
    return doc;
  }
  if (step.facts.type !== 'event_msg') return typeDoc(value, undefined, 'payload');
  const doc = typeDoc(value, ownEntry(eventTypes, value)?.doc, 'event');
  if (step.role === 'echo') {
    const repeated = step.repeats
      ? `It repeats ${describeStep(step.repeats)}.`
      : 'No `response_item` of this file holds what it repeats (the record it shows may have been cut off).';
    return `${doc}\n\n_A UI event:_ ${repeated} It is not counted as a message of the conversation.`;
  }
  if (step.role === 'call-echo') return `${doc}\n\n${reportHover(rollout, step)}`;
  return doc;
}

function reportHover(rollout: RolloutModel, step: RolloutStep): string {
  const event = step.facts.event;
  const call = event?.callId !== undefined ? rollout.callsById.get(event.callId)?.[0] : undefined;
  const parts = [call ? `**Reports** ${describeCall(rollout, call)}: a UI event, not its output.` : `No call of this rollout has the id ${inlineCode(event?.callId ?? '')}.`];
  const figures: string[] = [];
  if (event?.exitCode !== undefined) figures.push(`exit code ${event.exitCode}`);
  if (event?.durationMs !== undefined) figures.push(`ran ${formatDuration(event.durationMs)}`);
  if (figures.length > 0) parts.push(`The command ${figures.join(', ')}.`);
  return parts.join('\n\n');
}

function toolHover(rollout: RolloutModel, name: string): string {
  const calls = rollout.calls.filter((call) => call.name === name);
  const failed = calls.filter((call) => call.outputs.some((output) => output.isError)).length;
  return `**${escapeMarkdown(name)}** (tool)\n\n${calls.length} call${calls.length === 1 ? '' : 's'} in this rollout${failed > 0 ? `, ${failed} failed` : ''}.`;
}

/** The doc of the field `key` of the object at `path` in the step's record. */
function fieldDoc(step: RolloutStep | undefined, path: (string | number)[], key: string): FieldSchema | undefined {
  if (path.length === 0) return ownEntry(recordFields, key);
  if (!step || path[0] !== 'payload') return undefined;
  const facts = step.facts;
  if (path.length === 1) {
    if (facts.type === 'response_item') return ownEntry(ownEntry(itemSchemas, facts.payloadType ?? '')?.fields ?? {}, key);
    if (facts.type === 'event_msg') {
      if (key === 'type') return { kinds: ['string'], doc: 'The event: `user_message`, `token_count`, `turn_aborted`, …' };
      return ownEntry(ownEntry(eventTypes, facts.payloadType ?? '')?.payload ?? {}, key);
    }
    return ownEntry(ownEntry(recordTypes, facts.type ?? '')?.payload ?? {}, key);
  }
  if (path.length === 3 && typeof path[2] === 'number' && facts.type === 'response_item') {
    const root = step.line.root;
    const container = root?.type === 'object' ? root.properties.find((p) => p.key === 'payload')?.value : undefined;
    const list = container?.type === 'object' ? container.properties.find((p) => p.key === path[1])?.value : undefined;
    const part = list?.type === 'array' ? list.items[path[2]] : undefined;
    const type = part?.type === 'object' ? part.properties.find((p) => p.key === 'type')?.value : undefined;
    return type?.type === 'string' ? ownEntry(ownEntry(partSchemas, type.value)?.fields ?? {}, key) : undefined;
  }
  return undefined;
}
