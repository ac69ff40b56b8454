/**
 * How a Responses item is shown, in Responses files and in Codex rollouts alike: a call as `name("key argument")`
 * (hovers, messages) or `name: key argument` (outline), a value's text (a string decoded, a list of parts joined),
 * and an item as the preview draws it.
 */
import type { StepDrawing } from '../calls/stepGraph';
import { compactObject } from '../calls/labels';
import type { LinkedCall, LinkedOutput } from '../calls/model';
import { firstLine, shorten } from '../common/text';
import type { TextSource } from '../common/textSource';
import type { Span } from '../common/types';
import { parseJsonValue } from '../json/readJson';
import { decodeJsonString } from '../json/strings';
import { partsText, type CallFacts, type ItemFacts, type OutputFacts } from './itemFacts';

/** A call as the shared features see it, with what the item says of it. */
export type ItemCallLike = LinkedCall & { facts: CallFacts; argsSpan?: Span };
export type ItemOutputLike = LinkedOutput & { facts: OutputFacts; outputSpan?: Span; answers: LinkedCall | null };

const summaryLength = 120;

/** `shell("ls -la")`: the tool and what it works on, else its arguments compacted, at most max characters. */
export function callLabel(text: TextSource, call: ItemCallLike, max: number): string {
  const name = call.name ?? '?';
  const key = call.facts.keyArgument;
  if (key !== undefined) return shorten(`${name}("${key}")`, max);
  const args = call.argsSpan;
  if (!args) return `${name}()`;
  const room = Math.max(8, max - name.length - 2);
  const end = Math.min(args.end, args.start + room * 8);
  const source = call.facts.argsEncoding === 'json-string' && text.charCodeAt(args.start) === 0x22
    ? decodeJsonString(text, args.start + 1, Math.max(args.start + 1, end - 1), room * 8)
    : text.slice(args.start, end);
  return shorten(`${name}(${compactObject(source, room)})`, max);
}

/** `shell: ls -la`: how the outline and the preview title a call. */
export function callTitle(call: ItemCallLike, max: number): string {
  const name = call.name ?? '?';
  const key = call.facts.keyArgument;
  return shorten(key ? `${name}: ${key}` : name, max);
}

/** The text of a value: a string decoded, a list of parts joined, anything else as written; and its whole length. */
export function valueText(text: TextSource, span: Span | undefined, max: number): { text: string; length: number } {
  if (!span) return { text: '', length: 0 };
  if (text.charCodeAt(span.start) === 0x22) {
    const decoded = decodeJsonString(text, span.start + 1, span.end - 1, max);
    return { text: decoded, length: decoded.length < max ? decoded.length : span.end - span.start - 2 };
  }
  const source = text.slice(span.start, span.end);
  const { root } = parseJsonValue(source, 0, source.length);
  if (root?.type === 'array') {
    const joined = partsText(root, max);
    return { text: joined.slice(0, max), length: joined.length };
  }
  return { text: source.slice(0, max), length: source.length };
}

/** An item step as the preview needs it. */
export interface DrawnItem {
  role: string;
  facts: ItemFacts;
  span: Span;
  calls: readonly ItemCallLike[];
  heldOutputs: readonly ItemOutputLike[];
}

/**
 * An item's node: `at` names its place (`L7`, `#3`), `selection` is where a click puts the cursor. Roles: `prompt`,
 * `context` (a user message the writing tool added), `message`, `reasoning`, `call`, `output`; anything else is
 * drawn as metadata under its type.
 */
export function drawItem(text: TextSource, item: DrawnItem, at: string, selection: Span, max: number): StepDrawing {
  const facts = item.facts;
  const whole = (title: string, kind: StepDrawing['kind'], span = facts.contentSpan ?? item.span): StepDrawing => {
    const content = valueText(text, span, max);
    return { kind, title, summary: firstLine(content.text.slice(0, summaryLength * 4), summaryLength), text: content.text, textLength: content.length, selection };
  };
  switch (item.role) {
    case 'prompt':
      return { ...whole(`${at} user`, 'user'), role: 'user' };
    case 'context':
      return { ...whole(`${at} user (context from Codex)`, 'system'), role: 'user' };
    case 'message': {
      const role = facts.role ?? 'message';
      return { ...whole(`${at} ${role}`, role === 'assistant' ? 'assistant' : role === 'system' || role === 'developer' ? 'system' : 'message'), role };
    }
    case 'reasoning':
      return whole(`${at} reasoning`, 'message');
    case 'call':
      return { kind: 'call', ...callDrawing(text, item.calls[0], at, max) };
    case 'output': {
      const output = item.heldOutputs[0];
      const content = valueText(text, output.outputSpan, max);
      const tool = output.answers?.name ?? (output.callId !== undefined ? `"${output.callId}"` : '?');
      return {
        kind: 'output', title: `${at} output ← ${tool}${output.facts.exitCode ? ` (exit ${output.facts.exitCode})` : ''}`,
        summary: firstLine(content.text.slice(0, summaryLength * 4), summaryLength), text: content.text, textLength: content.length,
        selection: output.idSpan ?? selection,
      };
    }
    default:
      return whole(`${at} ${facts.type ?? 'item'}`, 'metadata', item.span);
  }
}

/** A call's node (drawn on its own, or inside the step that made it). */
export function callDrawing(text: TextSource, call: ItemCallLike, at: string, max: number): Omit<StepDrawing, 'kind'> {
  const args = valueText(text, call.argsSpan, max);
  return {
    title: `${at} ${callLabel(text, call, 60)}`,
    summary: firstLine((call.facts.keyArgument ?? args.text).slice(0, summaryLength * 4), summaryLength),
    text: args.text,
    textLength: args.length,
    selection: call.idSpan ?? call.nameSpan ?? { start: call.span.start, end: call.span.start },
  };
}
