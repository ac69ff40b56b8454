/**
 * Reading a file of spans: one JSON document (any-agent's `{"spans": [...]}`, an OTLP/JSON export), or one OTLP
 * object per line as the collector's file exporter writes them (in a `.jsonl` or a `.json` file), then every span's
 * own facts (ids, times, status, attributes, the messages of a model span) whichever writer wrote it.
 */
import type { Budget } from '../common/budget';
import { spend } from '../common/budget';
import type { JsonNode, JsonObject, JsonSyntaxError } from '../json/nodes';
import { property } from '../json/queries';
import { parseJsonValue, parseWholeJsonValue } from '../json/readJson';
import type { TokenUsage } from '../calls/model';
import type { Span } from '../common/types';
import { attributeJson, attributeNumber, attributeString, numberOf, readAttributes, type AttributeJson, type SpanAttribute } from './attributes';
import { detached, viewOfValidJson } from './jsonViews';
import { isZeroId, readSpanId } from './ids';
import { messageOfParts, readMessages, type ReadMessage } from './messages';
import type { MessageHistories } from './history';
import { keptList, noItems, type IdField, type SpanRole, type SpansShape } from './types';
import { spanOf } from '../common/spans';

export interface ReadSpan {
  node: JsonObject;
  shape: SpansShape;
  service?: string;
  /**
   * Its line was valid JSON and nothing else keeps the line's nodes: the span's node may be let go and read again
   * from the text when a feature visits it (one document's nodes are kept as the file's root).
   */
  releasable: boolean;
}

export interface ReadDocument<T> {
  shape?: SpansShape;
  /** One document's value (a file of lines keeps none: each line's nodes are let go once its spans are taken). */
  root?: JsonNode;
  errors: JsonSyntaxError[];
  lines: boolean;
  /** What `take` made of each span, in file order. */
  spans: T[];
  omittedLines: number;
  omittedSpans: number;
  finalOutput?: JsonNode;
}

/**
 * Spans read from one file at most, and lines; the rest is counted and said. Each span is given to `take` as soon as
 * its line is read, so that a line's nodes are garbage while they are still young (kept until every line was read,
 * the nodes of a whole file survived the young generation's collections and were copied and promoted).
 */
export function readDocument<T>(text: string, maxLines: number, budget: Budget | undefined, take: (span: ReadSpan) => T): ReadDocument<T> {
  const read: ReadDocument<T> = { errors: [], lines: false, spans: [], omittedLines: 0, omittedSpans: 0 };
  const firstLine = firstLineBounds(text);
  const rest = firstLine ? text.slice(firstLine.end, firstLine.end + 4096).trim() : '';
  const asLines = firstLine !== undefined && rest !== '' && parseJsonValue(text, firstLine.start, firstLine.end).errors.length === 0;
  if (asLines) {
    read.lines = true;
    let start = 0;
    let lines = 0;
    let steps = 0;
    while (start <= text.length) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      if (text.slice(start, Math.min(end, start + 64)).trim() !== '' || /\S/.test(text.slice(start, end))) {
        if (lines >= maxLines) {
          read.omittedLines++;
        } else {
          steps = spend(budget, steps);
          const lineEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
          // Lines are counted against the limit, not their spans. A valid line is read as a view (only what the
          // span reader visits is made); a broken one whole, for its errors and the partial tree its spans are read from.
          const view = viewOfValidJson(text, start, lineEnd);
          if (view) collectSpans(view, true, read, Number.MAX_SAFE_INTEGER, take);
          else {
            const parsed = parseWholeJsonValue(text, start, lineEnd, budget);
            read.errors.push(...parsed.errors);
            if (parsed.root) collectSpans(parsed.root, parsed.errors.length === 0, read, Number.MAX_SAFE_INTEGER, take);
          }
        }
        lines++;
      }
      start = end + 1;
    }
  } else {
    const parsed = parseWholeJsonValue(text, 0, text.length, budget);
    read.errors.push(...parsed.errors);
    read.root = parsed.root;
    // One document's spans are counted against the limit.
    if (parsed.root) collectSpans(parsed.root, false, read, maxLines, take);
  }
  return read;
}

function firstLineBounds(text: string): { start: number; end: number } | undefined {
  const start = text.search(/\S/);
  if (start === -1 || text.charCodeAt(start) !== 0x7b) return undefined;
  const newline = text.indexOf('\n', start);
  if (newline === -1) return undefined;
  return { start, end: newline };
}

function collectSpans<T>(value: JsonNode, releasable: boolean, read: ReadDocument<T>, maxSpans: number, take: (span: ReadSpan) => T): void {
  const add = (node: JsonNode, shape: SpansShape, service?: string) => {
    if (node.type !== 'object') return;
    if (read.spans.length >= maxSpans) {
      read.omittedSpans++;
      return;
    }
    read.shape ??= shape;
    read.spans.push(take({ node, shape, service, releasable }));
  };
  const resourceSpans = property(value, 'resourceSpans')?.value;
  if (resourceSpans?.type === 'array') {
    for (const resource of resourceSpans.items) {
      const service = attributeString(readAttributes(property(property(resource, 'resource')?.value, 'attributes')?.value).get('service.name'));
      const scopes = property(resource, 'scopeSpans')?.value ?? property(resource, 'instrumentationLibrarySpans')?.value;
      for (const scope of scopes?.type === 'array' ? scopes.items : []) {
        const spans = property(scope, 'spans')?.value;
        for (const span of spans?.type === 'array' ? spans.items : []) add(span, 'otlp', service);
      }
    }
    read.shape ??= 'otlp';
    return;
  }
  const spans = property(value, 'spans')?.value;
  if (spans?.type === 'array') {
    for (const span of spans.items) add(span, property(span, 'spanId') ? 'otlp' : 'any-agent');
    read.shape ??= 'any-agent';
    read.finalOutput ??= property(value, 'final_output')?.value;
  }
}

/** A span's own facts, read from its node. */
export interface SpanFacts {
  name?: string;
  nameNode?: JsonNode;
  spanId?: IdField;
  parentId?: IdField;
  traceId?: IdField;
  kind?: string;
  time?: number;
  endTime?: number;
  startSpan?: Span;
  endSpan?: Span;
  status?: 'ok' | 'error' | 'unset';
  statusMessage?: string;
  statusSpan?: Span;
  attributes: Map<string, SpanAttribute>;
  operation?: string;
  role: SpanRole;
  usage?: TokenUsage;
  cost?: number;
  input: ReadMessage[];
  output: ReadMessage[];
}

const otlpKinds = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];
const modelOperations = new Set(['chat', 'text_completion', 'generate_content', 'call_llm', 'completion', 'embeddings']);
const stringOf = (node: JsonNode | undefined) => (node?.type === 'string' ? node.value : undefined);

/**
 * `light`: the JSON inside message attributes read as views, and the messages keeping their nodes' places only (see
 * `kept`); false reads it whole and keeps the nodes as read (the reading the light one is compared with in tests).
 * `histories`: the input histories read for earlier spans of the file, which a light reading continues (history.ts).
 */
export function readSpanFacts(text: string, read: ReadSpan, light = true, histories?: MessageHistories): SpanFacts {
  const node = read.node;
  const otlp = read.shape === 'otlp';
  const nameValue = property(node, 'name')?.value;
  const nameNode = nameValue?.type === 'string' ? nameValue : undefined;
  const context = otlp ? node : property(node, 'context')?.value;
  const parentHolder = otlp ? node : property(node, 'parent')?.value;
  const attributes = readAttributes(property(node, 'attributes')?.value);
  const parent = idField(property(parentHolder, otlp ? 'parentSpanId' : 'span_id')?.value, 8);
  const kindNode = property(node, 'kind')?.value;
  const kind = kindNode?.type === 'string' ? kindNode.value.replace(/^SPAN_KIND_/, '').toLowerCase() : kindNode?.type === 'number' ? otlpKinds[Number(kindNode.raw)] : undefined;
  const start = property(node, otlp ? 'startTimeUnixNano' : 'start_time')?.value;
  const end = property(node, otlp ? 'endTimeUnixNano' : 'end_time')?.value;
  const startNs = numberOf(start);
  const endNs = numberOf(end);
  const status = readStatus(node, otlp);
  const operation = attributeString(attributes.get('gen_ai.operation.name')) ?? nameNode?.value.match(/^(\w+)\s/)?.[1];
  const role = roleOf(operation, attributes);
  const inputCost = attributeNumber(attributes.get('gen_ai.usage.input_cost'));
  const outputCost = attributeNumber(attributes.get('gen_ai.usage.output_cost'));
  // One literal of one shape: a span's facts added one by one made every step a dictionary of its properties.
  const facts: SpanFacts = {
    name: nameNode?.value, nameNode,
    spanId: idField(property(context, otlp ? 'spanId' : 'span_id')?.value, 8),
    parentId: parent && !isZeroId(parent) ? parent : undefined,
    traceId: idField(property(context, otlp ? 'traceId' : 'trace_id')?.value, 16),
    kind,
    time: startNs !== undefined && start ? startNs / 1e6 : undefined,
    endTime: endNs !== undefined && end ? endNs / 1e6 : undefined,
    startSpan: startNs !== undefined && start ? spanOf(start) : undefined,
    endSpan: endNs !== undefined && end ? spanOf(end) : undefined,
    status: status?.status, statusMessage: status?.message, statusSpan: status?.span,
    attributes, operation, role, usage: usageOf(attributes),
    cost: inputCost !== undefined || outputCost !== undefined ? (inputCost ?? 0) + (outputCost ?? 0) : undefined,
    input: noItems, output: noItems,
  };
  if (role === 'model') readModelMessages(text, facts, light, light ? histories : undefined);
  return facts;
}

function idField(node: JsonNode | undefined, bytes: 8 | 16): IdField | undefined {
  const id = readSpanId(node, bytes);
  return id && node ? { hex: id.hex, encoding: id.encoding, start: node.start, end: node.end } : undefined;
}

function readStatus(node: JsonObject, otlp: boolean): { status: 'ok' | 'error' | 'unset'; message?: string; span: Span } | undefined {
  const status = property(node, 'status')?.value;
  if (!status) return undefined;
  const code = property(status, otlp ? 'code' : 'status_code')?.value;
  const message = stringOf(property(status, otlp ? 'message' : 'description')?.value);
  const raw = code?.type === 'number' ? Number(code.raw) : stringOf(code)?.replace(/^STATUS_CODE_/, '').toLowerCase();
  return { status: raw === 2 || raw === 'error' ? 'error' : raw === 1 || raw === 'ok' ? 'ok' : 'unset', message: message || undefined, span: spanOf(code ?? status) };
}

function roleOf(operation: string | undefined, attributes: Map<string, SpanAttribute>): SpanRole {
  if (operation === 'execute_tool' || attributes.has('gen_ai.tool.call.id') || (attributes.has('gen_ai.tool.name') && !attributes.has('gen_ai.request.model'))) return 'tool';
  if (operation === 'invoke_agent' || operation === 'create_agent') return 'agent';
  if ((operation && modelOperations.has(operation)) || attributes.has('gen_ai.input.messages') || attributes.has('gen_ai.output.messages')) return 'model';
  return 'other';
}

function usageOf(attributes: Map<string, SpanAttribute>): TokenUsage | undefined {
  const input = attributeNumber(attributes.get('gen_ai.usage.input_tokens') ?? attributes.get('gen_ai.usage.prompt_tokens'));
  const output = attributeNumber(attributes.get('gen_ai.usage.output_tokens') ?? attributes.get('gen_ai.usage.completion_tokens'));
  if (input === undefined && output === undefined) return undefined;
  const usage: TokenUsage = {};
  if (input !== undefined) usage.input = input;
  if (output !== undefined) usage.output = output;
  const cached = attributeNumber(attributes.get('gen_ai.usage.cache_read.input_tokens') ?? attributes.get('gen_ai.usage.cache_read_input_tokens'));
  if (cached !== undefined) usage.cachedInput = cached;
  return usage;
}

/**
 * A model span's messages: the instructions (`gen_ai.system_instructions`) and `gen_ai.input.messages` as its input;
 * `gen_ai.output.messages`, else any-agent's `gen_ai.output` (a list of tool calls when its type is json and it holds
 * them, else the text the model answered), as its output.
 */
function readModelMessages(text: string, facts: SpanFacts, light: boolean, histories: MessageHistories | undefined): void {
  facts.input = [];
  facts.output = [];
  readModelMessagesInto(text, facts, light, histories);
  facts.input = keptList(facts.input);
  facts.output = keptList(facts.output);
}

function readModelMessagesInto(text: string, facts: SpanFacts, light: boolean, histories: MessageHistories | undefined): void {
  const attributes = facts.attributes;
  const instructions = attributes.get('gen_ai.system_instructions');
  if (instructions?.value) {
    const json = attributeJson(text, instructions, light);
    const parts = json?.root;
    facts.input.push(...kept(text, json, [messageOfParts(parts?.type === 'array' ? parts : instructions.value, 'system')], light));
  }
  facts.input.push(...readInput(text, attributes.get('gen_ai.input.messages'), light, histories));
  const output = attributeJson(text, attributes.get('gen_ai.output.messages'), light);
  if (output?.root) {
    facts.output.push(...kept(text, output, readMessages(output.root, 'assistant'), light));
    return;
  }
  const anyAgent = attributes.get('gen_ai.output');
  if (!anyAgent?.value) return;
  if (attributeString(attributes.get('gen_ai.output.type')) === 'json') {
    const json = attributeJson(text, anyAgent, light);
    if (json?.root?.type === 'array' && json.root.items.some((item) => property(item, 'tool.name'))) {
      facts.output.push(...kept(text, json, readMessages(json.root, 'assistant'), light));
      return;
    }
  }
  const node = anyAgent.value;
  facts.output.push({ span: spanOf(node), role: 'assistant', texts: [node], toolCalls: [], toolResponses: [] });
}

/** A model span's input messages: continuing a history read for an earlier span where it can (history.ts). */
function readInput(text: string, attribute: SpanAttribute | undefined, light: boolean, histories: MessageHistories | undefined): ReadMessage[] {
  const literal = attribute?.value;
  if (histories && literal?.type === 'string') {
    const continued = histories.continued(text, literal, (messages) => kept(text, { errors: [], encoded: true }, messages, light));
    if (continued) {
      attribute!.jsonErrors = [];
      return continued;
    }
  }
  const input = attributeJson(text, attribute, light);
  const messages = kept(text, input, readMessages(input?.root), light);
  if (histories && literal?.type === 'string' && input?.encoded && input.errors.length === 0) histories.readWhole(literal, input.root, messages, text);
  return messages;
}

/**
 * Messages as the model keeps them: read from a view, their texts, arguments and results keep only their places in
 * the file (see `detached`), so that the decoded text is let go.
 */
function kept(text: string, json: AttributeJson | undefined, messages: ReadMessage[], light: boolean): ReadMessage[] {
  if (!light || !json?.encoded || json.errors.length > 0) return messages;
  for (const message of messages) {
    message.texts = message.texts.length === 0 ? noItems : message.texts.map((node) => detached(text, node));
    for (const call of message.toolCalls) if (call.args) call.args = detached(text, call.args);
    for (const response of message.toolResponses) if (response.response) response.response = detached(text, response.response);
    message.toolCalls = keptList(message.toolCalls);
    message.toolResponses = keptList(message.toolResponses);
  }
  return messages;
}
