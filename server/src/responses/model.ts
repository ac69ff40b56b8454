/**
 * An OpenAI Responses document as the model of linked calls: a request body (its `instructions` and `input`), a
 * response (`"object": "response"` and its `output`), both (`input` and `output` in one object), or a bare list of
 * items (the Agents SDK's history). Every item is a step; `function_call`, `custom_tool_call`, `local_shell_call`,
 * `shell_call`, `apply_patch_call` and `computer_call` items are calls, answered by the output items that name their
 * `call_id` (never the item's `id`); the tools the API runs itself (web search, MCP, …) are calls whose result is
 * the item itself. Read with the project's tolerant JSON reader, so a broken document still has its items.
 */
import type { Budget } from '../common/budget';
import { CallLinker } from '../calls/links';
import type { JsonNode } from '../json/nodes';
import { numberValue, property } from '../json/queries';
import { parseJsonDocument } from '../json/readJson';
import { readItem, readUsage, stringOf, type ItemFacts } from './itemFacts';
import { responsesFormat } from './format';
import type { ItemCall, ItemOutput, ItemRole, ItemStep, ResponseFacts, ResponsesModel } from './types';
import { spanOf } from '../common/spans';

export type { ItemCall, ItemOutput, ItemStep, ResponseFacts, ResponsesModel } from './types';

const words = {
  unit: 'file',
  oneValue: 'a Responses file holds one JSON value',
  expectedValueHint: ' (a request body, a response, or a list of items)',
  commentsWhere: 'in JSON',
};

export function parseResponses(doc: { uri: string; version: number; text: string; budget?: Budget }): ResponsesModel {
  const { root, errors } = parseJsonDocument(doc.text, words, doc.budget);
  const model: ResponsesModel = {
    uri: doc.uri, version: doc.version, text: doc.text, root, errors, steps: [], calls: [], outputs: [], callsById: new Map(),
    outputsByCallId: new Map(), callsByItemId: new Map(), lists: [], format: responsesFormat,
  };
  const linker = new CallLinker<ItemCall, ItemOutput>(model);
  const add = (node: JsonNode, list: ItemStep['list'], facts = readItem(node, spanOf)) => addStep(model, linker, node, list, facts);
  if (root?.type === 'array') {
    (model as { shape?: string }).shape = 'items';
    model.lists.push(root);
    for (const item of root.items) add(item, 'items');
  } else if (root?.type === 'object') {
    const input = property(root, 'input')?.value;
    const output = property(root, 'output')?.value;
    const isResponse = stringOf(property(root, 'object')?.value) === 'response';
    (model as { shape?: string }).shape = isResponse && !input ? 'response' : input && output ? 'exchange' : input ? 'request' : output ? 'response' : undefined;
    (model as { response?: ResponseFacts }).response = responseFacts(root);
    const instructions = property(root, 'instructions')?.value;
    const parts: { node: JsonNode; list: ItemStep['list'] }[] = [];
    if (instructions?.type === 'string') parts.push({ node: instructions, list: 'instructions' });
    if (input) parts.push({ node: input, list: 'input' });
    if (output) parts.push({ node: output, list: 'output' });
    parts.sort((a, b) => a.node.start - b.node.start);
    for (const { node, list } of parts) {
      if (list === 'instructions') add(node, list, { span: spanOf(node), type: 'instructions', text: stringOf(node) });
      else if (node.type === 'string') add(node, list, { span: spanOf(node), type: 'message', role: 'user', text: stringOf(node), contentSpan: spanOf(node) });
      else if (node.type === 'array') {
        model.lists.push(node);
        for (const item of node.items) add(item, list);
      }
    }
  }
  return model;
}

function roleOf(facts: ItemFacts): ItemRole {
  if (facts.type === 'instructions') return 'instructions';
  if (facts.call) return 'call';
  if (facts.output) return 'output';
  if (facts.type === 'reasoning') return 'reasoning';
  if (facts.type === 'message') return facts.role === 'user' ? 'prompt' : 'message';
  return 'item';
}

function addStep(model: ResponsesModel, linker: CallLinker<ItemCall, ItemOutput>, node: JsonNode, list: ItemStep['list'], facts: ItemFacts): void {
  const step: ItemStep = { index: model.steps.length, span: spanOf(node), node, facts, role: roleOf(facts), list, calls: [], heldOutputs: [] };
  model.steps.push(step);
  if (facts.call) {
    const call: ItemCall = {
      index: 0, step, facts: facts.call, span: step.span, argsSpan: facts.call.argsSpan, id: facts.call.callId, idSpan: facts.call.callIdSpan,
      name: facts.call.name, nameSpan: facts.call.nameSpan, outputs: [],
    };
    step.calls.push(call);
    linker.call(call);
    if (facts.id !== undefined) {
      const listed = model.callsByItemId.get(facts.id);
      if (listed) listed.push(call);
      else model.callsByItemId.set(facts.id, [call]);
    }
  } else if (facts.output) {
    const output: ItemOutput = {
      index: step.index, step, facts: facts.output, span: step.span, outputSpan: facts.output.outputSpan, callId: facts.output.callId,
      idSpan: facts.output.callIdSpan, linkSpan: facts.output.callIdSpan ?? step.span, answers: null, implicit: false, isError: facts.output.isError,
    };
    step.heldOutputs.push(output);
    linker.output(output, false);
  }
}

function responseFacts(root: JsonNode): ResponseFacts {
  const usage = property(root, 'usage')?.value;
  const facts: ResponseFacts = {
    id: stringOf(property(root, 'id')?.value),
    model: stringOf(property(root, 'model')?.value),
    status: stringOf(property(root, 'status')?.value),
    createdAt: numberValue(property(root, 'created_at')?.value),
    completedAt: numberValue(property(root, 'completed_at')?.value),
    continues: stringOf(property(root, 'previous_response_id')?.value) ?? conversationOf(property(root, 'conversation')?.value),
  };
  const error = property(root, 'error')?.value;
  if (error && error.type !== 'null') facts.error = stringOf(property(error, 'message')?.value) ?? stringOf(error) ?? 'error';
  const figures = readUsage(usage);
  if (figures) facts.usage = figures;
  return facts;
}

/** A request's `conversation`: its id, as a string or `{"id": …}`. */
function conversationOf(node: JsonNode | undefined): string | undefined {
  return stringOf(node) ?? stringOf(property(node, 'id')?.value);
}
