/**
 * The preview of an Anthropic conversation, on the graph every format shares: the system prompt, each message with
 * its calls inside it, the user messages that answer calls drawn as their results (failed ones marked), an edge from
 * each call to its result. A JSON Lines file of several conversations offers them in the preview's picker.
 */
import type { GraphOptions, ServiceContext } from '../common/languageService';
import type { Problem } from '../common/types';
import type { GraphData } from '../../../shared/protocol';
import { buildGraph, callWithArguments, type GraphCall, type GraphItem } from '../calls/graph';
import { emptyGraph } from '../preview/emptyGraph';
import { property } from '../json/queries';
import { callLabel, conversationFormat } from './format';
import { isPrompt, messageText, oneLine } from './text';
import type { Conversation, ConversationCall, ConversationModel, MessageStep } from './types';

const summaryLength = 120;

export function graph(model: ConversationModel, options: GraphOptions, context: ServiceContext, problems: readonly Problem[]): GraphData {
  const document = { uri: model.uri, version: model.version, format: 'anthropic' as const };
  if (model.conversations.length === 0) return emptyGraph(document, context.settings.preview, 'This file holds no messages yet.');
  const chosen = Math.min(Math.max(0, options.traceIndex ?? 0), model.conversations.length - 1);
  const conversation = model.conversations[chosen];
  const maxText = context.settings.preview.maxTextLength;
  const items = conversation.steps.map((step) => item(model, conversation, step, maxText));
  const data = buildGraph(document, items, { ...options, traceIndex: chosen }, context, problems);
  if (model.conversations.length > 1) {
    data.traces = model.conversations.map((each, index) => {
      const first = each.steps.find(isPrompt);
      const line = each.values[0].line;
      const said = first ? oneLine(messageText(model.text, first, 200).text, 60) : '';
      return { index, label: `${line !== undefined ? `L${line + 1}` : `#${index + 1}`}${said ? ` ${said}` : ''}` };
    });
  }
  return data;
}

function item(model: ConversationModel, conversation: Conversation, step: MessageStep, maxText: number): GraphItem {
  const text = messageText(model.text, step, maxText);
  const summary = oneLine(text.text.slice(0, summaryLength * 2), summaryLength);
  const role = property(step.node, 'role');
  const selection = role?.value ? { start: role.value.start, end: role.value.end } : { start: step.span.start, end: step.span.start };
  const base = { eventIndex: step.index, span: { ...step.span }, selection, text, summary };
  if (step.system) return { ...base, kind: 'system', role: 'system', title: `${step.short} system` };
  const answers = step.heldOutputs.filter((output) => !output.answers?.server);
  if (step.role === 'user' && answers.length > 0 && !isPrompt(step)) {
    const failed = answers.some((output) => output.isError);
    const tools = [...new Set(answers.map((output) => output.answers?.name ?? `"${output.callId ?? '?'}"`))].join(', ');
    const results = answers.map((output) => conversationFormat.outputText(conversation, output, maxText).text).join('\n\n');
    const graphItem: GraphItem = {
      ...base, kind: 'output', title: `${step.short} ${failed ? 'error' : 'result'} ← ${tools}`, summary: oneLine(results.slice(0, summaryLength * 2), summaryLength),
      text: { text: results, length: results.length }, selection: answers[0].linkSpan, outputs: answers, failed,
    };
    const call = answers[0].answers;
    if (call?.name !== undefined) graphItem.toolName = call.name;
    if (answers[0].callId !== undefined) graphItem.callId = answers[0].callId;
    return graphItem;
  }
  const calls = step.calls.map((call) => graphCall(model, call, maxText));
  const kind = step.role === 'assistant' ? 'assistant' : step.role === 'user' ? 'user' : 'message';
  const graphItem: GraphItem = { ...base, kind, title: `${step.short} ${step.role ?? 'message'}`, calls };
  if (step.role !== undefined) graphItem.role = step.role;
  if (answers.length > 0) graphItem.outputs = answers;
  return graphItem;
}

function graphCall(model: ConversationModel, call: ConversationCall, maxText: number): GraphCall {
  return callWithArguments(model.text, call, call.input, callLabel(model.text, call, 60), maxText, summaryLength);
}
