/**
 * A file of spans as the model of linked calls, one per trace: each span is a step (in file order), the spans make
 * a tree by `parentSpanId`, and calls and outputs come from the spans in the order they ran (by start time):
 * - a model span's `tool_call` parts (its output's, or its input's history for a call made before it) are calls;
 *   any-agent's `gen_ai.output` list of `{"tool.name", "tool.args"}` gives calls without ids;
 * - an `execute_tool` span is the output of the call whose id it names (`gen_ai.tool.call.id`); where no call has
 *   its id, or it names none, it answers the first unanswered call to its tool made before it by a model span,
 *   nearest in the tree first (the link is inferred, and said so); where no model span made it, the tool span is a
 *   call of its own, answered by its own result;
 * - a `tool_call_response` part of a model's input is the output of its call when no tool span answers it; the
 *   history a model sees repeats earlier calls and responses, which are kept as mentions of them, never counted
 *   twice.
 * Ids are matched trimmed.
 */
import type { Budget } from '../common/budget';
import { spend } from '../common/budget';
import type { DocumentInput } from '../common/languageService';
import type { Span } from '../common/types';
import type { JsonObject } from '../json/nodes';
import { lazyContainer } from '../json/validReader';
import { attributeString } from './attributes';
import { callIdOf } from './ids';
import { readDocument, readSpanFacts, type ReadSpan } from './read';
import { MessageHistories } from './history';
import { spansFormat } from './format';
import { buildTree, byTime } from './tree';
import { keptList, type Mention, type SpanCall, type SpanOutput, type SpanStep, type SpansModel, type SpanTrace } from './types';
import type { ToolCallPart, ToolResponsePart } from './messages';
import { spanOf } from '../common/spans';

export type { SpanCall, SpanOutput, SpanStep, SpansModel, SpanTrace } from './types';

const defaultMaxLines = 250_000;

export function parseSpans(doc: DocumentInput): SpansModel {
  const text = doc.text;
  let steps = 0;
  const histories = new MessageHistories();
  const read = readDocument(text, doc.maxLines ?? defaultMaxLines, doc.budget, (spanRead) => {
    steps = spend(doc.budget, steps);
    return stepOf(text, spanRead, histories);
  });
  const model: SpansModel = {
    uri: doc.uri, version: doc.version, text, shape: read.shape, errors: read.errors, lines: read.lines, traces: [], steps: [],
    omittedLines: read.omittedLines, omittedSpans: read.omittedSpans, finalOutput: read.finalOutput, root: read.lines ? undefined : read.root,
  };
  const byTrace = new Map<string, SpanTrace>();
  for (const step of read.spans) {
    const key = step.traceId?.hex ?? '';
    let trace = byTrace.get(key);
    if (!trace) {
      trace = newTrace(model, key === '' ? undefined : key);
      byTrace.set(key, trace);
      model.traces.push(trace);
    }
    step.trace = trace;
    (step as { index: number }).index = trace.steps.length;
    trace.steps.push(step);
    model.steps.push(step);
  }
  for (const trace of model.traces) linkTrace(trace, doc.budget);
  return model;
}

function newTrace(model: SpansModel, traceId: string | undefined): SpanTrace {
  return {
    position: model.traces.length, traceId, text: model.text, steps: [], calls: [], outputs: [], callsById: new Map(), outputsByCallId: new Map(),
    roots: [], duplicates: [], format: spansFormat,
  };
}

/**
 * A span as a step: its facts read from its built node, which is then let go where it may be (ReadSpan's
 * `releasable`; kept, a span's nodes held about 7 KB): the step keeps a node that reads the span again from the text
 * when a feature visits it (a hover on one of its keys, the check of its ids), at the same offsets.
 */
function stepOf(text: string, read: ReadSpan, histories: MessageHistories): SpanStep {
  const facts = readSpanFacts(text, read, true, histories);
  const node = read.releasable ? lazyContainer(text, read.node.start, read.node.end, true) as JsonObject : read.node;
  // One literal of one shape (see readSpanFacts).
  return {
    index: 0, span: spanOf(read.node), node, trace: undefined as unknown as SpanTrace, service: read.service,
    name: facts.name, nameNode: facts.nameNode, spanId: facts.spanId, parentId: facts.parentId, traceId: facts.traceId, kind: facts.kind,
    time: facts.time, endTime: facts.endTime, startSpan: facts.startSpan, endSpan: facts.endSpan,
    status: facts.status, statusMessage: facts.statusMessage, statusSpan: facts.statusSpan, attributes: facts.attributes,
    operation: facts.operation, role: facts.role, usage: facts.usage, cost: facts.cost, input: facts.input, output: facts.output,
    parent: undefined, children: [], depth: 0, cycle: undefined, calls: [], heldOutputs: [], mentions: [],
  };
}

interface PendingResponse {
  step: SpanStep;
  part: ToolResponsePart;
}

function linkTrace(trace: SpanTrace, budget: Budget | undefined): void {
  const byId = new Map<string, SpanStep>();
  for (const step of trace.steps) {
    const hex = step.spanId?.hex;
    if (hex === undefined) continue;
    if (byId.has(hex)) trace.duplicates.push(step);
    else byId.set(hex, step);
  }
  trace.roots.push(...buildTree(trace.steps, byId));
  const ordered = [...trace.steps].sort(byTime);
  const calls: SpanCall[] = [];
  const firstCallById = new Map<string, SpanCall>();
  const toolSpans: SpanStep[] = [];
  const responses: PendingResponse[] = [];
  let count = 0;
  for (const step of ordered) {
    count = spend(budget, count);
    if (step.role === 'tool') {
      toolSpans.push(step);
      continue;
    }
    for (const message of step.input) {
      for (const part of message.toolCalls) addCall(step, part, 'input');
      for (const part of message.toolResponses) responses.push({ step, part });
    }
    for (const message of step.output) for (const part of message.toolCalls) addCall(step, part, 'output');
  }

  function addCall(step: SpanStep, part: ToolCallPart, source: 'input' | 'output'): void {
    if (part.id !== undefined && firstCallById.has(part.id)) {
      if (part.idSpan) step.mentions.push({ step, span: part.idSpan, callId: part.id, call: firstCallById.get(part.id), kind: 'call' });
      return;
    }
    // A call without an id in a model's input is history that cannot be told from a new call: not counted.
    if (source === 'input' && part.id === undefined) return;
    const call: SpanCall = {
      index: 0, step, span: part.span, id: part.id, idSpan: part.idSpan, name: part.name, nameSpan: part.nameSpan, args: part.args, source, outputs: [],
    };
    calls.push(call);
    step.calls.push(call);
    if (call.id !== undefined) firstCallById.set(call.id, call);
  }

  const outputs: SpanOutput[] = [];
  const answeredByToolSpan = new Set<string>();
  for (const tool of toolSpans) {
    const id = callIdOf(tool.attributes.get('gen_ai.tool.call.id')?.value);
    if (id !== undefined) answeredByToolSpan.add(id);
  }
  for (const tool of toolSpans) outputs.push(toolOutput(tool, calls, firstCallById, answeredByToolSpan, (call) => {
    calls.push(call);
    tool.calls.push(call);
  }));
  const answeredIds = new Set<string>(answeredByToolSpan);
  for (const { step, part } of responses) {
    if (part.id !== undefined && answeredIds.has(part.id)) {
      if (part.idSpan) step.mentions.push({ step, span: part.idSpan, callId: part.id, call: firstCallById.get(part.id), kind: 'response' });
      continue;
    }
    if (part.id === undefined) continue;
    answeredIds.add(part.id);
    const call = firstCallById.get(part.id) ?? null;
    const output: SpanOutput = {
      index: 0, step, span: part.span, result: part.response, source: 'input', callId: part.id, idSpan: part.idSpan, linkSpan: part.idSpan ?? part.span,
      answers: call, implicit: false,
    };
    call?.outputs.push(output);
    step.heldOutputs.push(output);
    outputs.push(output);
  }
  finish(trace, calls, outputs);
}

/** The output a tool span stands for, linked by id, else inferred, else to a call made of the span itself. */
function toolOutput(
  tool: SpanStep, calls: SpanCall[], byId: Map<string, SpanCall>, answeredByToolSpan: Set<string>, addOwnCall: (call: SpanCall) => void,
): SpanOutput {
  const idNode = tool.attributes.get('gen_ai.tool.call.id')?.value;
  const id = callIdOf(idNode);
  const nameAttribute = tool.attributes.get('gen_ai.tool.name');
  const name = attributeString(nameAttribute) ?? tool.name?.replace(/^execute_tool\s+/, '');
  const nameSpan = nameAttribute?.value ? spanOf(nameAttribute.value) : tool.nameNode ? spanOf(tool.nameNode) : undefined;
  const resultAttribute = tool.attributes.get('gen_ai.tool.call.result') ?? tool.attributes.get('gen_ai.output');
  const output: SpanOutput = {
    index: 0, step: tool, span: tool.span, result: resultAttribute?.value, source: 'tool-span', linkSpan: nameSpan ?? spanOf(tool.node), answers: null,
    implicit: false, isError: tool.status === 'error' || tool.attributes.has('error.type'),
  };
  let call = id !== undefined ? byId.get(id) : undefined;
  if (!call) {
    const inferred = inferCall(tool, name, calls, answeredByToolSpan);
    if (inferred) {
      call = inferred.call;
      output.inferred = inferred.note;
    }
  }
  if (!call) {
    const argsAttribute = tool.attributes.get('gen_ai.tool.call.arguments') ?? tool.attributes.get('gen_ai.tool.args');
    call = {
      index: 0, step: tool, span: tool.span, name, nameSpan, args: argsAttribute?.value, source: 'tool-span', outputs: [],
    };
    if (id !== undefined && idNode) Object.assign(call, { id, idSpan: spanOf(idNode) });
    // The span is the call and its result at once: its id names the call, so the output names none of its own.
    output.ownCall = true;
    addOwnCall(call);
  } else if (id !== undefined && idNode) {
    Object.assign(output, { callId: id, idSpan: spanOf(idNode) });
  }
  output.answers = call;
  call.outputs.push(output);
  if (tool.time !== undefined && tool.endTime !== undefined && tool.endTime >= tool.time) call.durationMs = tool.endTime - tool.time;
  tool.heldOutputs.push(output);
  return output;
}

/**
 * The call a tool span answers when no id links them: the first unanswered call to its tool (any tool when the call
 * names none) that a model span made before the tool span started and that no tool span names by id, looked for
 * first among the model spans beside it or above it in the tree, then in the whole trace.
 */
function inferCall(tool: SpanStep, name: string | undefined, calls: readonly SpanCall[], answeredByToolSpan: Set<string>): { call: SpanCall; note: string } | undefined {
  const candidates = calls.filter((call) =>
    call.source !== 'tool-span' && call.outputs.every((output) => output.source !== 'tool-span') && (call.id === undefined || !answeredByToolSpan.has(call.id)) &&
    (call.name === undefined || name === undefined || call.name === name) && byTime(call.step, tool) < 0);
  if (candidates.length === 0) return undefined;
  const near = candidates.find((call) => isSibling(call.step, tool) || isAncestor(call.step, tool));
  const call = near ?? candidates[0];
  const where = near ? (isSibling(call.step, tool) ? 'a model span beside it in the tree' : 'a model span above it in the tree') : 'a model span earlier in the trace';
  const why = call.id === undefined ? 'the call has no id' : `no call has the id this span names`;
  return { call, note: `inferred from span nesting and order (${why}): the first unanswered call${name !== undefined ? ` to "${name}"` : ''} made before this span, by ${where}` };
}

/** Spans with the same parent (named by id, whether or not the parent is in the file). */
function isSibling(a: SpanStep, b: SpanStep): boolean {
  return a.parentId !== undefined && a.parentId.hex === b.parentId?.hex;
}

function isAncestor(candidate: SpanStep, step: SpanStep): boolean {
  let depth = 0;
  for (let at = step.parent; at && depth < 10_000; at = at.parent, depth++) if (at === candidate) return true;
  return false;
}

/** Calls and outputs in file order, numbered and indexed by id, each step's own in file order. */
function finish(trace: SpanTrace, calls: SpanCall[], outputs: SpanOutput[]): void {
  const inFileOrder = (a: { step: SpanStep; span: Span }, b: { step: SpanStep; span: Span }) => a.step.index - b.step.index || a.span.start - b.span.start;
  calls.sort(inFileOrder);
  outputs.sort(inFileOrder);
  calls.forEach((call, index) => {
    call.index = index;
    trace.calls.push(call);
    if (call.id !== undefined) listUnder(trace.callsById, call.id, call);
  });
  outputs.forEach((output, index) => {
    output.index = index;
    trace.outputs.push(output);
    if (output.callId !== undefined) listUnder(trace.outputsByCallId, output.callId, output);
  });
  for (const step of trace.steps) {
    if (step.calls.length > 1) step.calls.sort(inFileOrder);
    if (step.heldOutputs.length > 1) step.heldOutputs.sort(inFileOrder);
    for (const call of step.calls) call.outputs.sort((a, b) => byTime(a.step, b.step));
    step.calls = keptList(step.calls);
    step.heldOutputs = keptList(step.heldOutputs);
    step.mentions = keptList(step.mentions);
    step.children = keptList(step.children);
  }
}

function listUnder<T>(map: Map<string, T[]>, key: string, value: T): void {
  const listed = map.get(key);
  if (listed) listed.push(value);
  else map.set(key, [value]);
}

export type { Mention };
