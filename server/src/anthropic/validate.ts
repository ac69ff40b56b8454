/**
 * The checks of an Anthropic conversation: syntax, the links between tool_use and tool_result (shared with every
 * format), what the Messages API refuses (a message without a valid role or content, a block of the wrong side, a
 * call without id or name, `input` that is not an object, a tool_result that is not in the message right after its
 * call, a tool defined twice), failed tools (`is_error`, shown on the call), and keys the API does not define (hints).
 */
import type { ServiceContext } from '../common/languageService';
import type { Problem, Severity, Span } from '../common/types';
import { capProblems, sortByPosition, tooManyProblemsMessage } from '../common/capProblems';
import { ownEntry } from '../common/lookup';
import { firstLine } from '../common/text';
import { linkProblems } from '../calls/validate';
import type { JsonNode, JsonObject } from '../json/nodes';
import { property, propertyValue, stringValue } from '../json/queries';
import { blockKeys, blockDocs, callBlockTypes, isOutputBlockType } from './blocks';
import { blockTypesByRole, messageFieldDocs, requestFieldDocs, responseFieldDocs } from './docs';
import { conversationFormat } from './format';
import type { Conversation, ConversationModel, MessageStep } from './types';

type Add = (span: Span, severity: Severity, name: string, message: string, related?: Problem['related']) => void;

export function validate(model: ConversationModel, context: ServiceContext): Problem[] {
  const problems: Problem[] = [];
  const add: Add = (span, severity, name, message, related) => {
    const problem: Problem = { span: { start: span.start, end: span.end }, severity, code: name.includes('/') ? name : `anthropic/${name}`, message };
    if (related) problem.related = related;
    problems.push(problem);
  };
  for (const value of model.values) {
    for (const error of value.errors) {
      const where = value.line !== undefined ? ` (line ${value.line + 1} is not valid JSON; other lines are read on their own)` : '';
      add({ start: error.start, end: Math.max(error.start, Math.min(error.end, value.end)) }, 'error', model.lines ? 'jsonl/syntax' : 'json/syntax', `${error.message}${where}`);
    }
    if (model.lines && value.root && value.errors.length === 0 && !value.shape) {
      add({ start: value.start, end: value.end }, 'warning', 'not-a-message', `Line ${value.line! + 1} is not a request, a response or a message of the Messages API, so it is not read`);
    }
  }
  for (const conversation of model.conversations) {
    linkProblems(conversation, add);
    checkConversation(conversation, add, context.settings.unknownKeyHints);
  }
  return capProblems(sortByPosition(problems), context.settings.maxProblems, (_omitted, shown, found) => ({
    span: { start: 0, end: Math.min(1, model.text.length) },
    severity: 'warning',
    code: 'anthropic/too-many-problems',
    message: tooManyProblemsMessage(shown, found),
  }));
}

function checkConversation(conversation: Conversation, add: Add, hints: boolean): void {
  for (const value of conversation.values) {
    const root = value.root;
    if (root?.type !== 'object' || !hints) continue;
    const known = value.shape === 'request' ? requestFieldDocs : value.shape === 'response' ? responseFieldDocs : messageFieldDocs;
    unknownKeys(root, known, add, value.shape === 'request' ? 'a request' : value.shape === 'response' ? 'a response' : 'a message');
    if (value.shape === 'request') checkTools(propertyValue(root, 'tools'), add);
  }
  for (const step of conversation.steps) {
    if (step.system) checkSystem(step, add);
    else checkMessage(step, add, hints);
  }
  for (const output of conversation.outputs) {
    const call = output.answers;
    if (!call) continue;
    // The API wants a tool's result in the user message right after the call's message; a server tool's, in the call's own.
    const expected = call.server ? call.step : conversation.steps.slice(call.step.index + 1).find((step) => !step.system);
    if (output.step !== expected && output.step.index > call.step.index) {
      add(output.linkSpan, 'warning', 'result-not-next',
        `This ${output.type} answers a call of ${call.step.name}, but is not in ${call.server ? 'that message' : 'the user message right after it'}${expected ? ` (${expected.name})` : ''}: the API refuses a tool_use whose result does not follow at once`,
        [{ span: call.idSpan ?? call.span, message: 'the call' }]);
    }
    if (output.isError) {
      const { text } = conversationFormat.outputText(conversation, output, 200);
      add(call.nameSpan ?? call.idSpan ?? call.span, 'information', 'tool-error',
        `The tool "${call.name ?? '?'}" failed: its ${output.type} in ${output.step.name} reports an error${text ? `: ${firstLine(text, 160)}` : ''}`,
        [{ span: output.linkSpan, message: 'the failed result' }]);
    }
  }
}

function checkSystem(step: MessageStep, add: Add): void {
  const content = step.content;
  if (!content || content.type === 'string') return;
  if (content.type !== 'array') {
    add(content, 'error', 'wrong-type', 'system is a string, or a list of text blocks');
    return;
  }
  for (const block of content.items) {
    const type = stringValue(propertyValue(block, 'type'));
    if (block.type !== 'object' || type !== 'text') add(block, 'error', 'wrong-type', 'The blocks of system are text blocks (`{"type": "text", "text": …}`)');
  }
}

function checkMessage(step: MessageStep, add: Add, hints: boolean): void {
  const node = step.node;
  if (node.type !== 'object') {
    add(node, 'error', 'wrong-type', 'A message is an object with role and content');
    return;
  }
  const role = property(node, 'role');
  const roleValue = role?.value;
  if (!roleValue) add({ start: node.start, end: node.start + 1 }, 'error', 'missing-key', 'A message needs a role: "user" or "assistant"');
  else if (step.role !== 'user' && step.role !== 'assistant') {
    add(roleValue, 'error', 'wrong-role', `The role of a message is "user" or "assistant"${step.role === 'system' ? ': the system prompt goes in the request\'s "system"' : step.role === 'tool' ? ': tool results are tool_result blocks of a user message' : ''}`);
  }
  if (hints && step.value.root !== node) unknownKeys(node, messageFieldDocs, add, 'a message');
  const content = step.content;
  if (!content) {
    add({ start: node.start, end: node.start + 1 }, 'error', 'missing-key', 'A message needs content: a string, or a list of blocks');
    return;
  }
  if (content.type === 'string') return;
  if (content.type !== 'array') {
    add(content, 'error', 'wrong-type', 'content is a string, or a list of blocks');
    return;
  }
  for (const block of content.items) checkBlock(step, block, add, hints);
}

function checkBlock(step: MessageStep, block: JsonNode, add: Add, hints: boolean): void {
  if (block.type !== 'object') {
    add(block, 'error', 'wrong-type', 'A content block is an object with a "type"');
    return;
  }
  const typeNode = propertyValue(block, 'type');
  const type = stringValue(typeNode);
  if (type === undefined) {
    add(typeNode ?? { start: block.start, end: block.start + 1 }, 'error', typeNode ? 'wrong-type' : 'missing-key', 'A content block needs a "type" (text, image, tool_use, tool_result, …)');
    return;
  }
  const known = ownEntry(blockDocs, type) !== undefined;
  if (!known) {
    if (hints) add(typeNode!, 'hint', 'unknown-block-type', `Block type "${type}" is not one this reader knows; the API may have added it`);
    return;
  }
  const allowed = step.role !== undefined ? ownEntry(blockTypesByRole, step.role) : undefined;
  if (allowed && !allowed.includes(type)) {
    const side = callBlockTypes.has(type) || type === 'thinking' || type === 'redacted_thinking' ? 'assistant' : 'user';
    add(typeNode!, 'error', 'wrong-side', `A ${type} block belongs in ${side === 'assistant' ? 'an assistant' : 'a user'} message, not in a${step.role === 'assistant' ? 'n assistant' : ` ${step.role}`} message`);
  }
  if (callBlockTypes.has(type)) checkCall(block, add);
  else if (isOutputBlockType(type)) checkOutput(block, type, add);
  else if ((type === 'text' || type === 'thinking') && stringValue(propertyValue(block, type)) === undefined) {
    const value = propertyValue(block, type);
    add(value ?? { start: block.start, end: block.start + 1 }, 'error', value ? 'wrong-type' : 'missing-key', `A ${type} block needs "${type}", a string`);
  }
  if (hints) {
    const keys = ownEntry(blockKeys, type);
    if (keys) for (const prop of block.properties) if (!keys.includes(prop.key)) add({ start: prop.keyStart, end: prop.keyEnd }, 'hint', 'unknown-key', `"${prop.key}" is not a key of a ${type} block`);
  }
}

function checkCall(block: JsonObject, add: Add): void {
  const at = { start: block.start, end: block.start + 1 };
  for (const key of ['id', 'name']) {
    const value = propertyValue(block, key);
    if (!value) add(at, 'error', 'missing-key', `A tool call needs "${key}"`);
    else if (value.type !== 'string') add(value, 'error', 'wrong-type', `"${key}" of a tool call is a string`);
  }
  const input = propertyValue(block, 'input');
  if (!input) {
    add(at, 'error', 'missing-key', 'A tool call needs "input", the arguments as an object');
    return;
  }
  if (input.type === 'object') return;
  if (input.type === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(input.value);
    } catch {
      parsed = undefined;
    }
    const object = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
    add(input, object ? 'warning' : 'error', 'input-not-object', object
      ? '"input" is an object in the Messages API; here it is the object written as a JSON string (as a reassembled stream leaves it): the API refuses it when it is sent back'
      : '"input" is the arguments as an object; this string is not even a JSON object');
    return;
  }
  add(input, 'error', 'input-not-object', `"input" is the arguments as an object, not ${input.type === 'array' ? 'a list' : input.type === 'null' ? 'null' : `a ${input.type}`}`);
}

function checkOutput(block: JsonObject, type: string, add: Add): void {
  const id = propertyValue(block, 'tool_use_id');
  if (!id) add({ start: block.start, end: block.start + 1 }, 'error', 'missing-key', `A ${type} block needs "tool_use_id", the id of the call it answers`);
  else if (id.type !== 'string') add(id, 'error', 'wrong-type', '"tool_use_id" is a string');
  const error = propertyValue(block, 'is_error');
  if (error && error.type !== 'boolean') add(error, 'error', 'wrong-type', '"is_error" is true or false');
  const content = propertyValue(block, 'content');
  if (type === 'tool_result' && content && content.type !== 'string' && content.type !== 'array') add(content, 'error', 'wrong-type', 'The content of a tool_result is a string, or a list of blocks');
}

function checkTools(tools: JsonNode | undefined, add: Add): void {
  if (!tools) return;
  if (tools.type !== 'array') {
    add(tools, 'error', 'wrong-type', 'tools is a list of tool definitions');
    return;
  }
  const seen = new Map<string, JsonNode>();
  for (const tool of tools.items) {
    const name = propertyValue(tool, 'name');
    if (tool.type !== 'object' || !name) {
      add(tool.type === 'object' ? { start: tool.start, end: tool.start + 1 } : tool, 'error', 'missing-key', 'A tool definition needs a "name"');
      continue;
    }
    if (name.type !== 'string') continue;
    const first = seen.get(name.value);
    if (first) add(name, 'error', 'duplicate-tool', `Tool "${name.value}" is defined twice: the API refuses tools with the same name`, [{ span: { start: first.start, end: first.end }, message: 'the first definition' }]);
    else seen.set(name.value, name);
  }
}

function unknownKeys(node: JsonObject, known: Record<string, string>, add: Add, what: string): void {
  for (const prop of node.properties) {
    if (ownEntry(known, prop.key) !== undefined) continue;
    add({ start: prop.keyStart, end: prop.keyEnd }, 'hint', 'unknown-key', `"${prop.key}" is not a key of ${what} in the Messages API`);
  }
}
