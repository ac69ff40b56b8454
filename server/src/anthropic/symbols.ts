/**
 * The outline of an Anthropic conversation: the system prompt, the tools the request defines, one entry per user
 * prompt with the calls of the assistant's answers nested under it (`get_weather(location="Paris")`; failed ones
 * marked ✗, unanswered ones said so). A JSON Lines file of several conversations has one entry per conversation.
 */
import { spend, type Budget } from '../common/budget';
import type { OutlineItem, Span } from '../common/types';
import { property, propertyValue, stringValue } from '../json/queries';
import { callLabel } from './format';
import { isPrompt, messageText, oneLine } from './text';
import type { Conversation, ConversationCall, ConversationModel, MessageStep } from './types';

const titleLength = 80;

export function symbols(model: ConversationModel, budget?: Budget): OutlineItem[] {
  const outlines = model.conversations.map((conversation) => conversationOutline(model, conversation, budget));
  if (outlines.length === 1) return outlines[0];
  return model.conversations.map((conversation, i) => {
    const first = conversation.steps.find(isPrompt);
    const title = first ? oneLine(messageText(model.text, first, titleLength * 2).text, titleLength) : '';
    const line = conversation.values[0].line;
    return {
      name: `Conversation ${i + 1}${title ? `: ${title}` : ''}`,
      detail: [line !== undefined ? `line ${line + 1}` : undefined, `${conversation.steps.length} messages`, callCount(conversation.calls)].filter(Boolean).join(' · '),
      kind: 'trace',
      span: { ...conversation.span },
      selection: { start: conversation.span.start, end: conversation.span.start },
      children: outlines[i],
    };
  });
}

function conversationOutline(model: ConversationModel, conversation: Conversation, budget?: Budget): OutlineItem[] {
  const items: OutlineItem[] = [];
  let turn: { item: OutlineItem; calls: ConversationCall[] } | undefined;
  const close = () => {
    if (turn && turn.calls.length > 0) turn.item.detail = [turn.item.detail, callCount(turn.calls)].filter(Boolean).join(' · ');
    turn = undefined;
  };
  let steps = 0;
  for (const step of conversation.steps) {
    steps = spend(budget, steps);
    if (step.system) {
      close();
      items.push({ name: `System: ${oneLine(messageText(model.text, step, titleLength * 2).text, titleLength)}`, kind: 'metadata', span: { ...step.span }, selection: selectionOf(step) });
      continue;
    }
    if (isPrompt(step) || !turn) {
      close();
      const said = oneLine(messageText(model.text, step, titleLength * 2).text, titleLength);
      const name = step.value.shape === 'response' && step.value.root === step.node ? `Response: ${said}` : step.role === 'user' ? said || '[image]' : `${step.role ?? 'message'}: ${said}`;
      const item: OutlineItem = { name: name || step.name, detail: step.name, kind: 'message', span: { ...step.span }, selection: selectionOf(step) };
      items.push(item);
      turn = { item, calls: [] };
    } else {
      turn.item.span.end = Math.max(turn.item.span.end, step.span.end);
    }
    for (const call of step.calls) {
      (turn.item.children ??= []).push(callItem(model, call));
      turn.calls.push(call);
    }
  }
  close();
  for (const value of conversation.values) {
    const tools = value.root && property(value.root, 'tools');
    if (tools?.value?.type !== 'array' || tools.value.items.length === 0) continue;
    const children: OutlineItem[] = [];
    for (const tool of tools.value.items) {
      const name = propertyValue(tool, 'name');
      const text = stringValue(name) ?? stringValue(propertyValue(tool, 'type')) ?? '?';
      children.push({ name: text, detail: stringValue(propertyValue(tool, 'type')), kind: 'function', span: { start: tool.start, end: tool.end }, selection: name ? { start: name.start, end: name.end } : { start: tool.start, end: tool.start } });
    }
    items.push({ name: `Tools: ${children.map((child) => child.name).join(', ')}`.slice(0, titleLength), kind: 'tools', span: { start: tools.start, end: tools.end }, selection: { start: tools.keyStart, end: tools.keyEnd }, children });
  }
  return items.sort((a, b) => a.span.start - b.span.start);
}

function callItem(model: ConversationModel, call: ConversationCall): OutlineItem {
  const failed = call.outputs.some((output) => output.isError);
  return {
    name: `${failed ? '✗ ' : ''}${callLabel(model.text, call, titleLength)}`,
    detail: failed ? 'failed' : call.outputs.length === 0 ? 'unanswered' : call.server ? 'run by the API' : undefined,
    kind: failed ? 'event' : 'call',
    span: { ...call.span },
    selection: call.nameSpan ? { ...call.nameSpan } : { start: call.span.start, end: call.span.start },
  };
}

function selectionOf(step: MessageStep): Span {
  const role = property(step.node, 'role');
  return role ? { start: role.keyStart, end: role.end } : { start: step.span.start, end: step.span.start };
}

function callCount(calls: readonly ConversationCall[]): string {
  if (calls.length === 0) return '';
  const failed = calls.filter((call) => call.outputs.some((output) => output.isError)).length;
  return `${calls.length} call${calls.length === 1 ? '' : 's'}${failed > 0 ? `, ${failed} failed` : ''}`;
}
